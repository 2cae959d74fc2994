import { useMemo } from 'react';
import { fileSource, type LoadSource, urlSource } from '../load';
import { useLocalFiles, useSourceIds } from './hooks';
import { isLocalSource, LOCAL_PREFIX } from './url';

/** The embedded demo, opened when the URL names no source. */
export const DEMO_URL = `${import.meta.env.BASE_URL}demo/rollouts.jsonl`;

export interface ResolvedSources {
  sources: LoadSource[];
  /** Local files the URL names but this page no longer holds (after a reload): they must be reopened. */
  missing: string[];
  isDemo: boolean;
}

/** The URL's sources, joined with the files opened in this page. */
export function useSources(): ResolvedSources {
  const ids = useSourceIds();
  const files = useLocalFiles(ids);
  return useMemo(() => {
    if (ids.length === 0) return { sources: [urlSource('demo', DEMO_URL)], missing: [], isDemo: true };
    const sources: LoadSource[] = [];
    const missing: string[] = [];
    ids.forEach((id, i) => {
      const file = files[i];
      if (!isLocalSource(id)) sources.push(urlSource(id, id));
      else if (file) sources.push(fileSource(id, file, id.slice(LOCAL_PREFIX.length)));
      else missing.push(id.slice(LOCAL_PREFIX.length));
    });
    return { sources, missing, isDemo: false };
  }, [ids, files]);
}
