import type { SearchMatch } from '../../analysis';
import type { FieldMapping } from '../../format';
import { servedIdOf } from '../served';
import type { LoadSource } from '../sources';
import type { FromSearchWorker, ToSearchWorker } from './protocol';
import type { ScanCallbacks, SearchProgress } from './scanSources';

export type { SearchProgress };

export interface SearchCallbacks extends ScanCallbacks {
  onDone: (records: number) => void;
  onError: (message: string) => void;
}

/** Where a search runs: `trajscope view` scans its own files; otherwise a worker in this page. */
export type SearchPlace = 'server' | 'worker' | 'thread';

const SEARCH_URL = '/api/search';

/**
 * Starts a search of the sources' records for the query's content clauses; returns the cancel. When every
 * source is a file `trajscope view` serves, the server scans them (no bytes cross to the page); otherwise
 * a search worker reads them (a File or URL) as a load does. Either way, with the same RecordScanner.
 */
export function startSearch(
  sources: readonly LoadSource[],
  query: string,
  mapping: FieldMapping | undefined,
  callbacks: SearchCallbacks,
): { cancel: () => void; place: SearchPlace } {
  const served = sources.map(servedIdOf);
  if (sources.length > 0 && served.every((id) => id !== null))
    return { place: 'server', cancel: onServer(served as string[], query, mapping, callbacks) };
  if (typeof Worker === 'undefined') return { place: 'thread', cancel: inThread(sources, query, mapping, callbacks) };
  return { place: 'worker', cancel: inWorker(sources, query, mapping, callbacks) };
}

function inThread(sources: readonly LoadSource[], query: string, mapping: FieldMapping | undefined, cb: SearchCallbacks) {
  const abort = new AbortController();
  // Imported when used: the record scan carries the line parser and every converter, which the page's
  // startup script leaves out (issue 25); a browser scans in the worker or on the server.
  import('./scanSources')
    .then(({ scanSources }) => scanSources(sources, query, { ...(mapping ? { mapping } : {}), signal: abort.signal }, cb))
    .then(cb.onDone, (e) => {
      if (!abort.signal.aborted) cb.onError(e instanceof Error ? e.message : String(e));
    });
  return () => abort.abort();
}

function inWorker(sources: readonly LoadSource[], query: string, mapping: FieldMapping | undefined, cb: SearchCallbacks) {
  const worker = new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = (event: MessageEvent<FromSearchWorker>) => {
    const m = event.data;
    if (m.type === 'matches') cb.onMatches(m.matches);
    else if (m.type === 'progress') cb.onProgress(m.progress);
    else {
      worker.terminate();
      if (m.type === 'done') cb.onDone(m.records);
      else cb.onError(m.message);
    }
  };
  worker.onerror = (e) => {
    worker.terminate();
    cb.onError(`the search worker failed: ${e.message}`);
  };
  const message: ToSearchWorker = {
    // A worker resolves relative URLs against its own script: make them absolute here.
    sources: sources.map((s) => (s.kind === 'file' ? s : { ...s, url: new URL(s.url, globalThis.location?.href).href })),
    query,
    ...(mapping ? { mapping } : {}),
  };
  worker.postMessage(message);
  return () => worker.terminate();
}

/** A line of `/api/search` (src/cli/server/search.ts): this app's own server, not trajectory data. */
type ServerLine = { match: SearchMatch } | { progress: SearchProgress } | { done: { records: number } } | { error: string };

function onServer(ids: string[], query: string, mapping: FieldMapping | undefined, cb: SearchCallbacks) {
  const abort = new AbortController();
  const params = new URLSearchParams({ q: query });
  for (const id of ids) params.append('file', id);
  if (mapping) params.set('map', JSON.stringify(mapping));
  (async () => {
    const res = await fetch(`${SEARCH_URL}?${params}`, { signal: abort.signal });
    if (!res.ok || !res.body) {
      const text = await res.text();
      cb.onError(text.startsWith('{') ? (JSON.parse(text) as { error: string }).error : `the server's search failed: HTTP ${res.status}`);
      return;
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let rest = '';
    let batch: SearchMatch[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      const lines = (rest + next.value).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') continue;
        const m = JSON.parse(line) as ServerLine;
        if ('match' in m) batch.push(m.match);
        else if ('progress' in m) cb.onProgress(m.progress);
        else if ('done' in m) {
          if (batch.length) cb.onMatches(batch);
          cb.onDone(m.done.records);
          return;
        } else {
          cb.onError(m.error);
          return;
        }
      }
      if (batch.length) cb.onMatches(batch);
      batch = [];
    }
    cb.onError('the server ended the search early');
  })().catch((e) => {
    if (!abort.signal.aborted) cb.onError(e instanceof Error ? e.message : String(e));
  });
  return () => abort.abort();
}
