import { useMemo, useSyncExternalStore } from 'react';
import { type DatasetFeed, type LoadSource, manifestUrlOf, type RunSource, type RunState, runSource } from '../load';
import type { RunDataSource } from './dataset/dataSource';
import { useSelection } from './hooks';
import { readSelection } from './url';

const NO_RUN: RunState = { snapshot: null, error: null, loading: false, rangesIgnored: null, building: false, manifest: null };
const NO_SOURCES: readonly LoadSource[] = [];
const noop = () => () => {};

/**
 * Rollouts the run list and groups show at once: each is made into a summary when shown, so a whole run
 * of millions is listed a step range at a time (chosen on the run page). Failure modes read the index's
 * columns, so they take a whole run.
 */
const LISTED_AT_ONCE = 200_000;

/**
 * Starts reading the run the URL opens, before the app's first render: the manifest is on its way while
 * React renders the shell, which then finds the read under way (the source reads once however many ask).
 * False when the URL opens files, not a run.
 */
export function startOpenedRun(): boolean {
  const { run } = readSelection(window.location.search);
  if (run !== null) void runSource(manifestUrlOf(run)).refresh();
  return run !== null;
}

/** The run the URL's `run=` names (its source and current state), or null when files are open. */
export function useRun(): { source: RunSource; state: RunState } | null {
  const { run } = useSelection();
  const source = useMemo(() => (run === null ? null : runSource(manifestUrlOf(run))), [run]);
  const state = useSyncExternalStore(source?.subscribe ?? noop, source?.getState ?? (() => NO_RUN));
  return source ? { source, state } : null;
}

/** The feed of the run's rows in the URL's selected training steps, for the run list, groups and rollout pages. */
function useRunFeed(source: RunSource): DatasetFeed {
  const { steps } = useSelection();
  const from = steps?.from ?? null;
  const to = steps?.to ?? null;
  return useMemo(() => source.feed(from === null || to === null ? null : { from, to }), [source, from, to]);
}

/**
 * The run named `run` as the shell's source: polled while shown (RunSource), its rows in the URL's
 * training steps as the feed; every version of that feed carries the whole run's columns (`Dataset.run`).
 */
export function useRunSource(run: string): RunDataSource {
  const source = useMemo(() => runSource(manifestUrlOf(run)), [run]);
  const state = useSyncExternalStore(source.subscribe, source.getState);
  const feed = useRunFeed(source);
  const { steps } = useSelection();
  const { snapshot } = state;
  return {
    kind: 'run',
    feed,
    // A run that could not be read at all says why in its banner; one read before keeps showing.
    status: snapshot !== null ? 'ready' : state.error ? 'failed' : 'loading',
    hasData: snapshot !== null,
    header: { sources: NO_SOURCES, isDemo: false, isDemoRun: false, served: null, run },
    state,
    steps,
    tooManyToList: snapshot !== null && steps === null && snapshot.rows > LISTED_AT_ONCE ? snapshot.rows : null,
  };
}
