import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prewarmParseWorker } from './load';
import { openBundledRun } from './state';
import { App } from './ui/App';
import './ui/app.css';

const queryClient = new QueryClient({
  // Loaded data changes only when the person opens something else; refocusing the tab must not re-read it.
  defaultOptions: { queries: { refetchOnWindowFocus: false, refetchOnReconnect: false } },
});

// A bundled site (trajscope bundle) opens its run.
openBundledRun();

// The first file opens as the page starts: have its parse worker compiling meanwhile.
prewarmParseWorker();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
