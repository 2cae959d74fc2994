import { useQueryClient } from '@tanstack/react-query';
import { createContext, createElement, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import { type Dataset, type DatasetFeed, type LoadSource, loadedDataset, loadedFilesFeed, loadKey } from '../../load';

/** What a view shows before anything is read: no rows, no groups. */
const EMPTY: Dataset = loadedDataset({
  report: { summary: { lines: 0, rollouts: 0, errors: 0, warnings: 0 }, parse_errors: [], rollouts: [], groups: [] },
  records: [],
  advantages: { grpo: [], drGrpo: [] },
  drGrpoGroups: [],
  files: [],
  pending: [],
});

const NO_FEED: DatasetFeed = { current: () => undefined, subscribe: () => () => {} };

const FeedContext = createContext<DatasetFeed>(NO_FEED);

/** Gives the views below it their data. The shell places it once, around every page. */
export function DatasetProvider({ feed, children }: { feed: DatasetFeed; children: ReactNode }) {
  return createElement(FeedContext.Provider, { value: feed }, children);
}

/** The feed of the files the URL names, read into this page (one per set of sources). */
export function useLoadedFilesFeed(sources: readonly LoadSource[]): DatasetFeed {
  const client = useQueryClient();
  const key = loadKey(sources);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the load key names the sources' bytes; a new array of the same sources is the same feed.
  return useMemo(() => loadedFilesFeed(client, sources), [client, key]);
}

/**
 * The current version of the data, re-rendering when it changes (a live file's appended lines). The
 * views read it through the named hooks beside this one, never whole.
 */
export function useDataset(): Dataset {
  const feed = useContext(FeedContext);
  return useSyncExternalStore(feed.subscribe, feed.current) ?? EMPTY;
}
