import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoadSource } from './sources';

/** A file offered by `trajscope view` (src/cli/server/catalog.ts). */
export interface ServedFile {
  id: string;
  name: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Where `trajscope view` serves the named files and their list; absent on a plain static host. */
export const SERVED_FILES_PREFIX = '/files/';
const SERVED_LIST_URL = '/api/files';
export const SERVED_EVENTS_URL = '/api/events';

function isServedFile(v: unknown): v is ServedFile {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return typeof f.id === 'string' && typeof f.name === 'string' && typeof f.size === 'number' && typeof f.ino === 'number';
}

/** Parses the server's list; anything else (a 404 page, an SPA fallback) means "not served by trajscope view". */
export function parseServedList(body: unknown): ServedFile[] | null {
  return Array.isArray(body) && body.every(isServedFile) ? body : null;
}

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
        return parseServedList(await res.json());
      } catch {
        return null;
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function useServedFiles() {
  return useQuery(servedFilesOptions());
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
