// First, and not through load's index (which would evaluate all of load first): a run's shard worker
// starts before the other modules are evaluated (startEarly.ts).
// biome-ignore lint/style/noRestrictedImports: its point is to run before load's other modules
import './load/run/startEarly';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { prewarmParseWorker } from './load';
import { openBundledRun, startOpenedRun } from './state';
import { App } from './ui/App';
import './ui/app.css';

const queryClient = new QueryClient({
  // Loaded data changes only when the person opens something else; refocusing the tab must not re-read it.
  defaultOptions: { queries: { refetchOnWindowFocus: false, refetchOnReconnect: false } },
});

// A bundled site (trajscope bundle) opens its run.
openBundledRun();

// What the page opens first starts now, while the app renders: a run's read (its manifest asked for; its
// shard decoder's worker, started by startEarly.ts, or here for a bundled run), or the parse worker (and
// its lines workers) for files. Only the one needed: on two cores the parse worker's three threads
// compiling took a core from a run page's start, whose file reads never use them.
if (!startOpenedRun()) prewarmParseWorker();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// The first render is a transition, so React renders in slices and lets other tasks in between: the
// manifest's response and the shard worker's start both wait for a free moment of this thread (Chromium
// starts a worker from its parent's thread), and the first render, one task of 100-300 ms, held them until
// it ended; the worker got the first shard's request 250-400 ms later than with the render sliced (issue 25).
const reactRoot = createRoot(root);
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  ),
);
