import { useMemo, useSyncExternalStore } from 'react';
import { type DatasetFeed, manifestUrlOf, type RunSource, type RunState, runSource } from '../load';
import { useSelection } from './hooks';

const NO_RUN: RunState = { snapshot: null, error: null, loading: false, rangesIgnored: null, building: false };
const noop = () => () => {};

/** The run the URL's `run=` names (its source and current state), or null when files are open. */
export function useRun(): { source: RunSource; state: RunState } | null {
  const { run } = useSelection();
  const source = useMemo(() => (run === null ? null : runSource(manifestUrlOf(run))), [run]);
  const state = useSyncExternalStore(source?.subscribe ?? noop, source?.getState ?? (() => NO_RUN));
  return source ? { source, state } : null;
}

/** The feed of the run's rows in the URL's selected training steps, for the run list, groups and rollout pages. */
export function useRunFeed(source: RunSource | null): DatasetFeed | null {
  const { steps } = useSelection();
  const from = steps?.from ?? null;
  const to = steps?.to ?? null;
  return useMemo(() => (source === null ? null : source.feed(from === null || to === null ? null : { from, to })), [source, from, to]);
}
