import { useQueryClient } from '@tanstack/react-query';
import { createContext, createElement, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import {
  type Dataset,
  type DatasetFeed,
  type LoadSource,
  loadedDataset,
  loadedFilesFeed,
  loadKey,
  type ReadOptions,
  type RunSnapshot,
} from '../../load';

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

/** Gives the views below it their data. DataSourceProvider places it once, around the shell; tests place it over a feed. */
export function DatasetProvider({ feed, children }: { feed: DatasetFeed; children: ReactNode }) {
  return createElement(FeedContext.Provider, { value: feed }, children);
}

/** The feed of the files the URL names, read into this page the way the URL says (one per sources and read options). */
export function useLoadedFilesFeed(sources: readonly LoadSource[], read: ReadOptions = {}): DatasetFeed {
  const client = useQueryClient();
  const key = loadKey(sources, read);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the load key names the sources' bytes and how they are read; new objects of the same are the same feed.
  return useMemo(() => loadedFilesFeed(client, sources, read), [client, key]);
}

/**
 * The current version of the data, re-rendering when it changes (a live file's appended lines). The
 * views read it through the named hooks beside this one, never whole.
 */
export function useDataset(): Dataset {
  const feed = useContext(FeedContext);
  return useSyncExternalStore(feed.subscribe, feed.current) ?? EMPTY;
}

/**
 * The whole run's columns when a run is open (`Dataset.run`: every row, whichever training steps the
 * feed's rows are), null for files: the same snapshot whatever range the URL chooses.
 */
export function useRunSnapshot(): RunSnapshot | null {
  const feed = useContext(FeedContext);
  return useSyncExternalStore(feed.subscribe, () => feed.current()?.run?.snapshot ?? null);
}
