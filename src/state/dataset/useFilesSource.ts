import { useEffect } from 'react';
import { useLintReport, useLiveFollow, useServedListFollow } from '../../load';
import { useReadOptions, useSourceIds } from '../hooks';
import { openRun } from '../navigation';
import { useReviewTabSync } from '../reviews';
import { useSources } from '../useSources';
import type { FilesDataSource, SourceStatus } from './dataSource';
import { useLoadedFilesFeed } from './datasetContext';

/**
 * The files the URL names (or the demo, or what `trajscope view` serves), read into the page the way the
 * URL says, kept current while they grow (useLiveFollow), their reviews in step with other tabs', and,
 * while `view` serves an empty folder, the served list followed until files appear.
 */
export function useFilesSource(): FilesDataSource {
  const { sources, missing, isDemo, isDemoRun, pending, served } = useSources();
  const { read } = useReadOptions();
  const report = useLintReport(sources, read);
  const feed = useLoadedFilesFeed(sources, read);
  // The page shows what `view` serves (the URL names nothing): when that directory becomes a run, its run page.
  const followsServer = useSourceIds().length === 0 && served !== null;
  const onRun = followsServer ? openRun : undefined;
  useLiveFollow(sources, report.isSuccess, read, onRun);
  const waiting = !pending && sources.length === 0 && missing.length === 0 && served !== null;
  useServedListFollow(waiting, onRun);
  useReviewTabSync();
  useLoadMarks(report.data !== undefined, report.isSuccess && !report.isFetching);
  const hasData = sources.length > 0 && report.data !== undefined;
  const status: SourceStatus = pending
    ? 'pending'
    : waiting
      ? 'waiting'
      : sources.length === 0
        ? 'missing'
        : report.isError
          ? 'failed'
          : hasData
            ? 'ready'
            : 'loading';
  return {
    kind: 'files',
    feed,
    status,
    hasData,
    header: { sources, isDemo, isDemoRun, served },
    sources,
    missing,
    isDemo,
    error: report.error,
    refreshing: report.isFetching,
  };
}

/** User Timing marks: `npm run bench` and anyone profiling read load times from them. */
function useLoadMarks(firstRows: boolean, loaded: boolean): void {
  useEffect(() => {
    if (firstRows) performance.mark('trajscope:first-rows');
  }, [firstRows]);
  useEffect(() => {
    if (loaded) performance.mark('trajscope:loaded');
  }, [loaded]);
}
