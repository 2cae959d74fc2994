import { useSyncExternalStore } from 'react';

// history.pushState fires no event; this one tells subscribers that the app itself navigated.
const NAVIGATE_EVENT = 'trajscope:navigate';

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(NAVIGATE_EVENT, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(NAVIGATE_EVENT, listener);
  };
}

/** The current query string ("?src=…"), re-rendering on back/forward and on `navigate`. */
export function useSearch(): string {
  return useSyncExternalStore(subscribe, () => window.location.search);
}

/**
 * Changes the query string. `replace` for changes the back button should skip (moving through rows),
 * push for ones it should undo (opening other files).
 */
export function navigate(search: string, { replace = false }: { replace?: boolean } = {}): void {
  if (search === window.location.search) return;
  const url = `${window.location.pathname}${search}${window.location.hash}`;
  if (replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}
