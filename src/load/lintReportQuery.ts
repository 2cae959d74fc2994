import { queryOptions, experimental_streamedQuery as streamedQuery, useQuery } from '@tanstack/react-query';
import { registerLiveLoad } from './liveStates';
import type { LoadResult, ReadOptions } from './loadState';
import { setLoadProgress } from './progress';
import { isServedSource } from './served';
import { type LoadSource, sourceKey } from './sources';
import { streamLoad } from './worker/client';

/** The key progress is published under; the same string for the same bytes read the same way. */
export function loadKey(sources: readonly LoadSource[], read: ReadOptions = {}): string {
  // The rules themselves, not a name for them: another file's rules (or the same file edited) read again.
  const how =
    read.mapping || read.unknownAsFinished || read.rules
      ? `\n#read ${JSON.stringify([read.mapping ?? null, read.unknownAsFinished === true, ...(read.rules ? [read.rules] : [])])}`
      : '';
  return sources.map(sourceKey).join('\n') + how;
}

/**
 * Reads and lints a set of sources together, streaming: the data grows as the worker parses, so the run
 * list shows the first rollouts at once and fills in (`isFetching` stays true until the end). A source's
 * bytes never change, so the result never goes stale; a live source is kept current by useLiveFollow.
 */
export function lintReportOptions(sources: readonly LoadSource[], read: ReadOptions = {}) {
  const key = loadKey(sources, read);
  return queryOptions({
    queryKey: ['lint-report', key] as const,
    queryFn: streamedQuery<LoadResult, LoadResult | undefined>({
      streamFn: ({ signal }) => {
        const stream = streamLoad(sources, {
          signal,
          onProgress: (p) => setLoadProgress(key, p),
          // Files served by `trajscope view` may still be growing: hold back a half-written last line.
          follow: isServedSource,
          onLive: (live) => registerLiveLoad(key, live),
          read,
        });
        return clearProgressAfter(stream, key);
      },
      reducer: (_previous, snapshot) => snapshot,
      initialValue: undefined,
      // A reload of a live file keeps showing the old rows until the new read is complete.
      refetchMode: 'replace',
    }),
    staleTime: Number.POSITIVE_INFINITY,
    // Each snapshot is a new object built from the last; comparing them deeply would cost O(data) per update.
    structuralSharing: false,
    // A missing file or a broken gzip does not mend itself; say so at once instead of after 3 retries.
    retry: false,
    enabled: sources.length > 0,
  });
}

async function* clearProgressAfter(stream: AsyncIterable<LoadResult>, key: string): AsyncIterable<LoadResult> {
  try {
    yield* stream;
  } finally {
    setLoadProgress(key, null);
  }
}

export function useLintReport(sources: readonly LoadSource[], read: ReadOptions = {}) {
  return useQuery(lintReportOptions(sources, read));
}
