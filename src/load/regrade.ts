import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { parseRegradeJournal, REGRADE_DIR, REGRADE_TABLE_FILE, type RegradeRow, regradeRowsOf } from '../format';

/*
 * A regrade's table (docs/adr/0025) on the page: the one `trajscope view DIR` serves from
 * DIR/.trajscope/regrade/regrade.parquet (GET /api/regrade), or a regrade.parquet or regrade.journal the
 * person opens (a static host, `npm start`, a regrade kept elsewhere). Either is held in the query cache
 * under one key for the page's life, as the review queue is.
 */

const SERVED_REGRADE_URL = '/api/regrade';
/** The view server's type for the table (src/cli/server/regrade.ts): a static host's fallback page is not one. */
const PARQUET_TYPE = 'application/vnd.apache.parquet';

export interface LoadedRegrade {
  rows: RegradeRow[];
  /** Where it came from: the run's table path, or the name of the file opened. */
  from: string;
}

/** The server's own words for a refusal (`{ error }`), else its status. */
async function refusal(res: Response): Promise<string> {
  try {
    const body: unknown = await res.json();
    if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string') return body.error;
  } catch {
    // not the endpoint's JSON
  }
  return `the server answered ${res.status}`;
}

/** Parquet files begin with `PAR1`; anything else is read as a journal (JSON lines). */
function isParquet(bytes: ArrayBuffer): boolean {
  const head = new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength));
  return String.fromCharCode(...head) === 'PAR1';
}

/** The rows of a regrade table's bytes, Parquet or journal; throws naming the row and field that is wrong. */
export async function regradeRowsOfBytes(bytes: ArrayBuffer): Promise<RegradeRow[]> {
  if (isParquet(bytes)) {
    // The Parquet reader is imported when a table is read, not with the page (its Open button is on the
    // page from the start; issue 25): this is a promise already.
    const { parquetReadObjects } = await import('hyparquet');
    return regradeRowsOf(await parquetReadObjects({ file: bytes }));
  }
  return parseRegradeJournal(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
}

/** The served run's regrade; null when there is none, or no `view` to ask (a static host answers its page). */
async function servedRegrade(): Promise<LoadedRegrade | null> {
  const res = await fetch(SERVED_REGRADE_URL, { headers: { Accept: PARQUET_TYPE }, cache: 'no-store' });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(await refusal(res));
  if (!(res.headers.get('content-type') ?? '').startsWith(PARQUET_TYPE)) return null;
  return { rows: await regradeRowsOfBytes(await res.arrayBuffer()), from: `${REGRADE_DIR}/${REGRADE_TABLE_FILE}` };
}

function regradeOptions() {
  return queryOptions({
    queryKey: ['regrade'] as const,
    queryFn: servedRegrade,
    staleTime: Number.POSITIVE_INFINITY,
    // Kept while the page lives: an opened file is nowhere else, and opening a flipped rollout unmounts the page.
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

interface RegradeState {
  loaded: LoadedRegrade | null;
  isPending: boolean;
  /** Why the served table could not be read (a refused link, a bad field), or null. */
  error: string | null;
}

export function useRegrade(): RegradeState {
  const q = useQuery(regradeOptions());
  return { loaded: q.data ?? null, isPending: q.isPending, error: q.error ? q.error.message : null };
}

/** Opens a regrade.parquet or regrade.journal chosen by the person in place of any other; rejects with what is wrong. */
export function useOpenRegradeFile(): (file: File) => Promise<void> {
  const client = useQueryClient();
  return useCallback(
    async (file: File) => {
      const loaded: LoadedRegrade = { rows: await regradeRowsOfBytes(await file.arrayBuffer()), from: file.name };
      client.setQueryData(regradeOptions().queryKey, loaded);
    },
    [client],
  );
}
