import { Activity, lazy, Suspense, useEffect, useState } from 'react';
import { DatasetProvider, formatRange, toRun, useRun, useRunFeed, useSelection } from '../state';
import { CheckpointsView } from './checkpoints/CheckpointsView';
import { CompareView } from './compare/CompareView';
import { ProblemsPanel } from './problems/ProblemsPanel';
import { QueueView } from './queue/QueueView';
import { RolloutPage } from './RolloutPage';
import { RunBanner } from './run/RunBanner';
import { RunListView } from './run-list/RunListView';
import { SearchBox } from './search/SearchBox';
import { SearchView } from './search/SearchView';
import { Notice } from './shared/Notice';
import { Header } from './shell/Header';

// Both use the chart library: loaded when first shown, as the groups page is for files.
const GroupsView = lazy(() => import('./groups/GroupsView').then((m) => ({ default: m.GroupsView })));
const FailureModesView = lazy(() => import('./modes/FailureModesView').then((m) => ({ default: m.FailureModesView })));
const RegradeView = lazy(() => import('./regrade/RegradeView').then((m) => ({ default: m.RegradeView })));
const loadRunPage = () => import('./run/RunPage');
const RunPage = lazy(() => loadRunPage().then((m) => ({ default: m.RunPage })));

const placeholder = <div className="placeholder" aria-busy="true" />;

/**
 * Rollouts the run list and groups show at once: each is made into a summary when shown, so a whole run
 * of millions is listed a step range at a time (chosen on the run page). Failure modes read the index's
 * columns, so they take a whole run.
 */
const LISTED_AT_ONCE = 200_000;

/**
 * The shell for a run opened from its index (`?run=`): the run page, and the run list, groups, rollout,
 * search, compare and checkpoints pages over the training steps the URL selects (search reads the run's
 * files: `Dataset.scanSources`). It composes views, so it sits beside App.
 */
export function RunShell() {
  const run = useRun();
  const feed = useRunFeed(run?.source ?? null);
  const { view, run: name, steps } = useSelection();
  // The run page's script (and the chart library) loads while the index is read, not after.
  useEffect(() => {
    if (view === 'run') void loadRunPage();
  }, [view]);
  // Once shown, the run page stays mounted, hidden (React's Activity) while another page is open: unmounting
  // its nine charts was one task of 40-85 ms on leaving it (the longest of the Failure modes page, `npm run
  // bench`), and drawing them again on coming back one of 0.5-0.9 s. Hidden, its DOM stays and its updates
  // (the URL changes with every page) wait for idle time, in slices.
  const [runPageKept, setRunPageKept] = useState(view === 'run');
  if (view === 'run' && !runPageKept) setRunPageKept(true);
  if (!run || !feed || name === null) return null;
  const { state } = run;
  const onRunPage = view === 'run';
  return (
    <DatasetProvider feed={feed}>
      <div className="app">
        <Header
          sources={[]}
          isDemo={false}
          isDemoRun={false}
          view={view}
          served={null}
          run={name}
          search={state.snapshot && <SearchBox />}
        />
        <main className="app-main">
          <RunBanner state={state} />
          {view !== 'run' && steps && state.snapshot && (
            <Notice>
              Training step{steps.from === steps.to ? '' : 's'} {formatRange(steps)} of the run.
            </Notice>
          )}
          {state.snapshot && runPageKept && (
            <Activity mode={onRunPage ? 'visible' : 'hidden'}>
              <Suspense fallback={placeholder}>
                <RunPage snapshot={state.snapshot} />
              </Suspense>
            </Activity>
          )}
          {state.snapshot === null ? (
            state.error ? null : (
              placeholder
            )
          ) : onRunPage ? null : view !== 'modes' && steps === null && state.snapshot.rows > LISTED_AT_ONCE ? (
            <div className="placeholder">
              <h2>{state.snapshot.rows.toLocaleString('en-US')} rollouts</h2>
              <p>Too many to list at once: choose training steps on the run page, then open their rollouts.</p>
              <button type="button" onClick={toRun}>
                To the run page
              </button>
            </div>
          ) : view === 'rollout' ? (
            <RolloutPage />
          ) : view === 'search' ? (
            <SearchView />
          ) : view === 'compare' ? (
            <CompareView />
          ) : view === 'checkpoints' ? (
            <CheckpointsView />
          ) : view === 'queue' ? (
            <QueueView />
          ) : view === 'regrade' ? (
            <Suspense fallback={placeholder}>
              <RegradeView />
            </Suspense>
          ) : view === 'groups' ? (
            <Suspense fallback={placeholder}>
              <GroupsView />
            </Suspense>
          ) : view === 'modes' ? (
            <Suspense fallback={placeholder}>
              <FailureModesView />
            </Suspense>
          ) : (
            <RunListView />
          )}
        </main>
        {state.snapshot && view !== 'run' && <ProblemsPanel />}
      </div>
    </DatasetProvider>
  );
}
