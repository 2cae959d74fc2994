import { useMemo } from 'react';
import { distinctNames } from '../format';
import { fileSource, type LoadSource, type ServedFile, servedUrl, urlSource, useServedFiles } from '../load';
import { isDemoRun } from './demoRun';
import { useLocalFiles, useRunParam, useSourceIds } from './hooks';
import { isLocalSource, LOCAL_PREFIX } from './url';

/** The embedded demo, opened when the URL names no source. */
export const DEMO_URL = `${import.meta.env.BASE_URL}demo/rollouts.jsonl`;

export interface ResolvedSources {
  sources: LoadSource[];
  /** Local files the URL names but this page no longer holds (after a reload): they must be reopened. */
  missing: string[];
  isDemo: boolean;
  /** The URL opens exactly the committed demo training run (demoRun.ts). */
  isDemoRun: boolean;
  /** Still asking whether `trajscope view` serves files here; nothing is opened until it answers. */
  pending: boolean;
  /** The files `trajscope view` serves, or null on a plain static host. */
  served: ServedFile[] | null;
}

/** Served files by URL, keyed on what names them (not their sizes, which change while they grow). */
function useServedByUrl(ask: boolean): { list: ServedFile[] | null; pending: boolean; names: string; served: boolean } {
  const served = useServedFiles(ask);
  const list = served.data ?? null;
  const names = list ? list.map((f) => `${servedUrl(f)}\t${f.name}`).join('\n') : '';
  return { list, pending: served.isPending, names, served: list !== null };
}

/**
 * Sources with distinct names: a name is the file part of the ids of rollouts whose format has none, so two
 * URLs ending in `output.jsonl` must not share one (false duplicates, issue 31). A URL's folders tell them apart.
 */
function distinctSources(sources: LoadSource[]): LoadSource[] {
  const names = distinctNames(sources.map((s) => ({ name: s.name, parents: s.kind === 'url' ? urlFolders(s.url) : [] })));
  return sources.map((s, i) => ({ ...s, name: names[i] ?? s.name }));
}

/** "https://host/a/b/x.jsonl?q" -> ["a", "b"]. */
function urlFolders(url: string): string[] {
  const path = url.split(/[?#]/, 1)[0]?.replace(/^[a-z]+:\/\/[^/]*/i, '') ?? '';
  return path.split('/').filter(Boolean).slice(0, -1).map(decodeSegment);
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The URL's sources, joined with the files opened in this page. None while a run is open: its rollouts
 * are read from its index and its own files (state/run.ts), and neither `trajscope view`'s list nor the
 * demo is asked for. The rollout page of a run used to ask `/api/files` when it opened (its problems
 * panel reads whether the data is still loading), and a static host's answer came in the middle of it.
 */
export function useSources(): ResolvedSources {
  const ids = useSourceIds();
  const files = useLocalFiles(ids);
  const run = useRunParam() !== null;
  const served = useServedByUrl(!run);
  const resolved = useMemo(() => {
    if (run) return { sources: [], missing: [], isDemo: false, pending: false };
    const servedNames = new Map(served.names === '' ? [] : served.names.split('\n').map((l) => l.split('\t') as [string, string]));
    const named = (url: string) => ({ kind: 'url' as const, id: url, url, name: servedNames.get(url) ?? urlSource(url, url).name });
    if (ids.length === 0) {
      if (served.pending) return { sources: [], missing: [], isDemo: false, pending: true };
      // Served by `trajscope view`: open every served file, as `tensorboard --logdir` shows every run.
      if (servedNames.size > 0) return { sources: [...servedNames.keys()].map(named), missing: [], isDemo: false, pending: false };
      // Served, but nothing yet (an empty run directory): wait for the files, never show the demo as if it
      // were what `view` serves; the served list refreshes itself as files appear (issue 31).
      if (served.served) return { sources: [], missing: [], isDemo: false, pending: false };
      return { sources: [urlSource('demo', DEMO_URL)], missing: [], isDemo: true, pending: false };
    }
    const sources: LoadSource[] = [];
    const missing: string[] = [];
    ids.forEach((id, i) => {
      const file = files[i];
      if (!isLocalSource(id)) sources.push(named(id));
      else if (file) sources.push(fileSource(id, file, id.slice(LOCAL_PREFIX.length)));
      else missing.push(id.slice(LOCAL_PREFIX.length));
    });
    return { sources: distinctSources(sources), missing, isDemo: false, pending: false };
  }, [run, ids, files, served.names, served.pending, served.served]);
  return { ...resolved, isDemoRun: isDemoRun(ids), served: served.list };
}
