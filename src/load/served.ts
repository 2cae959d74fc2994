import { queryOptions, useQuery } from '@tanstack/react-query';
import { parseServedList, type ServedFile } from '../format';
import type { LoadSource } from './sources';

export type { ServedFile };

/** Where `trajscope view` serves the named files and their list; absent on a plain static host. */
const SERVED_FILES_PREFIX = '/files/';
const SERVED_LIST_URL = '/api/files';
export const SERVED_EVENTS_URL = '/api/events';

/**
 * The files `trajscope view` serves, or null when the app is not served by it (then the embedded demo
 * opens by default). Asked once; the live event stream keeps it current.
 */
export function servedFilesOptions() {
  return queryOptions({
    queryKey: ['served-files'] as const,
    queryFn: async ({ signal }): Promise<ServedFile[] | null> => {
      try {
        const res = await fetch(SERVED_LIST_URL, { signal, headers: { Accept: 'application/json' } });
        if (!res.ok || !(res.headers.get('content-type') ?? '').includes('application/json')) return null;
        return parseServedList(await res.text());
      } catch {
        return null;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** `ask` false: not asked (a run's page, whose rollouts come from its index); pending until asked. */
export function useServedFiles(ask = true) {
  return useQuery({ ...servedFilesOptions(), enabled: ask });
}

export function servedUrl(file: Pick<ServedFile, 'id'>): string {
  return `${SERVED_FILES_PREFIX}${file.id}`;
}

export function isServedSource(source: LoadSource): boolean {
  return servedIdOf(source) !== null;
}

export function servedIdOf(source: LoadSource): string | null {
  return source.kind === 'url' && source.url.startsWith(SERVED_FILES_PREFIX) ? source.url.slice(SERVED_FILES_PREFIX.length) : null;
}
