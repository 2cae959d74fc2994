import { queryOptions, useQuery } from '@tanstack/react-query';
import { lintSources } from './lintSources';
import { registerLiveState } from './liveStates';
import { setLoadProgress } from './progress';
import { isServedSource } from './served';
import { type LoadSource, sourceKey } from './sources';

/** The key progress is published under; the same string for the same bytes. */
export function loadKey(sources: readonly LoadSource[]): string {
  return sources.map(sourceKey).join('\n');
}

/** Reads and lints a set of sources together. A source's bytes never change, so the result never goes stale. */
export function lintReportOptions(sources: readonly LoadSource[]) {
  const key = loadKey(sources);
  return queryOptions({
    queryKey: ['lint-report', key] as const,
    queryFn: async ({ signal }) => {
      try {
        return await lintSources(sources, {
          signal,
          onProgress: (p) => setLoadProgress(key, p),
          // Files served by `trajscope view` may still be growing: hold back a half-written last line.
          follow: isServedSource,
          onState: (state) => {
            if (sources.some(isServedSource)) registerLiveState(key, state);
          },
        });
      } finally {
        setLoadProgress(key, null);
      }
    },
    staleTime: Number.POSITIVE_INFINITY,
    // A missing file or a broken gzip does not mend itself; say so at once instead of after 3 retries.
    retry: false,
    enabled: sources.length > 0,
  });
}

export function useLintReport(sources: readonly LoadSource[]) {
  return useQuery(lintReportOptions(sources));
}
