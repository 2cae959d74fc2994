import { lazy, Suspense, useCallback, useEffect } from 'react';
import { useLintReport, useLiveFollow, useServedListFollow } from '../load';
import {
  DatasetProvider,
  openRun,
  useLoadedFilesFeed,
  useNotice,
  useReadOptions,
  useReviewTabSync,
  useSelection,
  useSourceIds,
  useSources,
  useUiActions,
} from '../state';
import { CheckpointsView } from './checkpoints/CheckpointsView';
import { CompareView } from './compare/CompareView';
import { ReadWithMapping } from './formats/ReadWithMapping';
import { DropOverlay } from './open/DropOverlay';
import { useFileDrop } from './open/useFileDrop';
import { ProblemsPanel } from './problems/ProblemsPanel';
import { QueueView } from './queue/QueueView';
import { RolloutPage } from './RolloutPage';
import { RunShell } from './RunShell';
import { RunListView } from './run-list/RunListView';
import { SearchBox } from './search/SearchBox';
import { SearchView } from './search/SearchView';
import { Notice } from './shared/Notice';
import { useOpenFiles } from './shared/useOpenFiles';
import { Header } from './shell/Header';
import { LoadFailed } from './source/LoadFailed';
import { LoadingStrip } from './source/LoadingStrip';
import { LoadingView } from './source/LoadingView';
import { MissingFiles, MissingFilesNotice } from './source/MissingFiles';
import { WaitingForFiles } from './source/WaitingForFiles';

// The groups page is the only user of the chart library (recharts and its d3 and redux helpers, about
// half of the page's script): it loads when first shown, so the run list and a rollout open sooner.
const GroupsView = lazy(() => import('./groups/GroupsView').then((m) => ({ default: m.GroupsView })));
const FailureModesView = lazy(() => import('./modes/FailureModesView').then((m) => ({ default: m.FailureModesView })));
const RegradeView = lazy(() => import('./regrade/RegradeView').then((m) => ({ default: m.RegradeView })));

/** Files read into the page, or a run read from its index (`?run=`, RunShell). */
export function App() {
  const { run } = useSelection();
  return run === null ? <FilesApp /> : <RunShell />;
}

/** The shell: what is open (from the URL), the load, and the run list once it is read. */
function FilesApp() {
  const { sources, missing, isDemo, isDemoRun, pending, served } = useSources();
  const choice = useReadOptions();
  const report = useLintReport(sources, choice.read);
  const feed = useLoadedFilesFeed(sources, choice.read);
  // The page shows what `view` serves (the URL names nothing): when that directory becomes a run, its run page.
  const followsServer = useSourceIds().length === 0 && served !== null;
  const toRun = useCallback((mount: string) => openRun(mount), []);
  useLiveFollow(sources, report.isSuccess, choice.read, followsServer ? toRun : undefined);
  const waiting = !pending && sources.length === 0 && missing.length === 0 && served !== null;
  useServedListFollow(waiting, followsServer ? toRun : undefined);
  useReviewTabSync();
  const open = useOpenFiles();
  const dragging = useFileDrop(useCallback((files: File[]) => open(files, { fromDrop: true }), [open]));
  const notice = useNotice();
  const { setNotice } = useUiActions();
  const result = sources.length > 0 ? report.data : undefined;
  const { view } = useSelection();
  const loaded = report.isSuccess && !report.isFetching;
  const firstRows = report.data !== undefined;
  // User Timing marks: `npm run bench` and anyone profiling read load times from them.
  useEffect(() => {
    if (firstRows) performance.mark('trajscope:first-rows');
  }, [firstRows]);
  useEffect(() => {
    if (loaded) performance.mark('trajscope:loaded');
  }, [loaded]);

  return (
    <DatasetProvider feed={feed}>
      <div className="app">
        <Header sources={sources} isDemo={isDemo} isDemoRun={isDemoRun} view={view} served={served} search={result && <SearchBox />} />
        <main className="app-main">
          {notice && <Notice onDismiss={() => setNotice(null)}>{notice}</Notice>}
          {missing.length > 0 && sources.length > 0 && <MissingFilesNotice missing={missing} />}
          {result && report.isFetching && <LoadingStrip sources={sources} />}
          {result && !report.isFetching && view === 'list' && <ReadWithMapping sources={sources} />}
          {pending ? (
            <div className="placeholder" aria-busy="true" />
          ) : waiting ? (
            <WaitingForFiles />
          ) : sources.length === 0 ? (
            <MissingFiles missing={missing} />
          ) : report.isError ? (
            <LoadFailed error={report.error} isDemo={isDemo} />
          ) : result ? (
            view === 'rollout' ? (
              <RolloutPage />
            ) : view === 'checkpoints' ? (
              <CheckpointsView />
            ) : view === 'compare' ? (
              <CompareView />
            ) : view === 'queue' ? (
              <QueueView />
            ) : view === 'regrade' ? (
              <Suspense fallback={<div className="placeholder" aria-busy="true" />}>
                <RegradeView />
              </Suspense>
            ) : view === 'search' ? (
              <SearchView />
            ) : view === 'groups' ? (
              <Suspense fallback={<div className="placeholder" aria-busy="true" />}>
                <GroupsView />
              </Suspense>
            ) : view === 'modes' ? (
              <Suspense fallback={<div className="placeholder" aria-busy="true" />}>
                <FailureModesView />
              </Suspense>
            ) : (
              <RunListView />
            )
          ) : (
            <LoadingView sources={sources} />
          )}
        </main>
        {result && <ProblemsPanel />}
        {dragging && <DropOverlay />}
      </div>
    </DatasetProvider>
  );
}
