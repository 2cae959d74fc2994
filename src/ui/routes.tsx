import { type ComponentType, lazy, Suspense } from 'react';
import { backToList, toCheckpoints, toGroups, toModes, toQueue, toRegrade, toRun, type View } from '../state';
import { CheckpointsView } from './checkpoints/CheckpointsView';
import { CompareView } from './compare/CompareView';
import { QueueView } from './queue/QueueView';
import { RolloutPage } from './RolloutPage';
import { RunListView } from './run-list/RunListView';
import { SearchView } from './search/SearchView';

/** What shows while a page's script or the data it needs is still on its way. */
export const PLACEHOLDER = <div className="placeholder" aria-busy="true" />;

/** A view's page, and what the app bar and the shell need to know of it. */
export interface Route<V extends View = View> {
  view: V;
  page: ComponentType;
  /** A page loaded when first shown: its script, which the shell also starts while the data is read. */
  load?: () => Promise<unknown>;
  /** Its button in the app bar (the label is what e2e specs find it by). */
  bar?: { label: string; go: () => void; title?: string };
  /** The page whose bar button this view lights (a rollout is inside Rollouts). */
  inside?: View;
  /** Only while a run is opened from its index; with files the run list shows instead. */
  runOnly?: boolean;
  /** Once shown, kept mounted and hidden in place (shared/keptPage.ts) when another page is open. */
  keep?: boolean;
  /** Reads the index's columns, so it takes a whole run however many rollouts (no "too many to list"). */
  wholeRun?: boolean;
  /** No problems panel under it. */
  noProblems?: boolean;
  /**
   * Drawn while a run's first rows are still read (a kept page): the run page lays out its frame and first
   * chart while the first shard decodes, so the rows have only a line to add when they come.
   */
  beforeData?: boolean;
}

function lazyPage<M>(load: () => Promise<M>, pick: (m: M) => ComponentType): Pick<Route, 'page' | 'load'> {
  return { page: lazy(() => load().then((m) => ({ default: pick(m) }))), load };
}

/**
 * Every view's page, in the app bar's order. The chart pages (recharts and its d3 and redux helpers, about
 * half of a chart page's script) and the regrade page load when first shown, so the run list and a rollout
 * open sooner. The run page stays mounted once shown: unmounting its nine charts was one task of 40-85 ms
 * on leaving it (the longest of the Failure modes page, `npm run bench`), and drawing them again on coming
 * back one of 0.5-0.9 s. Hidden, it stays mounted and connected and draws nothing for other pages' URL
 * changes (React's Activity, tried before, disconnected the charts' effects on leaving: a task of 71-113 ms).
 * The run list is kept too: drawing it afresh on coming back from a rollout (Esc) was one task of 51-83 ms
 * (its render and commit, then its layout), the long task `npm run bench` saw in its search phases.
 */
const ROUTES: { readonly [V in View]: Route<V> } = {
  run: {
    view: 'run',
    ...lazyPage(
      () => import('./run/RunPage'),
      (m) => m.RunPage,
    ),
    bar: { label: 'Run', go: toRun },
    runOnly: true,
    keep: true,
    wholeRun: true,
    noProblems: true,
    beforeData: true,
  },
  list: { view: 'list', page: RunListView, bar: { label: 'Rollouts', go: backToList }, keep: true },
  rollout: { view: 'rollout', page: RolloutPage, inside: 'list' },
  groups: {
    view: 'groups',
    ...lazyPage(
      () => import('./groups/GroupsView'),
      (m) => m.GroupsView,
    ),
    bar: { label: 'Groups', go: toGroups },
  },
  modes: {
    view: 'modes',
    ...lazyPage(
      () => import('./modes/FailureModesView'),
      (m) => m.FailureModesView,
    ),
    bar: { label: 'Failure modes', go: toModes, title: 'What the rollouts that failed have in common, and how it changes over training' },
    wholeRun: true,
  },
  checkpoints: {
    view: 'checkpoints',
    page: CheckpointsView,
    bar: { label: 'Checkpoints', go: () => toCheckpoints(), title: 'Two policy versions, step ranges or files, task by task' },
  },
  queue: {
    view: 'queue',
    page: QueueView,
    bar: {
      label: 'Queue',
      go: toQueue,
      title: 'Who reviews which rollouts, and how far each reviewer has got (trajscope queue makes the queue)',
    },
  },
  regrade: {
    view: 'regrade',
    ...lazyPage(
      () => import('./regrade/RegradeView'),
      (m) => m.RegradeView,
    ),
    bar: {
      label: 'Regrade',
      go: toRegrade,
      title: 'What a changed grader would have changed: the flipped verdicts, advantages and groups (trajscope regrade makes the table)',
    },
  },
  search: { view: 'search', page: SearchView },
  compare: { view: 'compare', page: CompareView },
};

/** The route whose page a view shows: its own, or the run list's for a run-only view with files open. */
export function routeOf(view: View, isRun: boolean): Route {
  const route: Route = ROUTES[view];
  return route.runOnly && !isRun ? ROUTES.list : route;
}

/** A page of the app bar: its label, the views it is current on, and the way there. */
export interface BarPage {
  label: string;
  views: readonly View[];
  go: () => void;
  title?: string;
  runOnly?: boolean;
}

const routes: readonly Route[] = Object.values(ROUTES);

/** The app bar's pages, in the bar's order, derived from the routes. */
export const BAR_PAGES: readonly BarPage[] = routes.flatMap(({ view, bar, runOnly }) =>
  bar ? [{ ...bar, views: [view, ...routes.filter((r) => r.inside === view).map((r) => r.view)], runOnly }] : [],
);

/** A route's page; a lazy one shows the placeholder until its script is there. */
export function RoutePage({ route }: { route: Route }) {
  const Page = route.page;
  return route.load ? (
    <Suspense fallback={PLACEHOLDER}>
      <Page />
    </Suspense>
  ) : (
    <Page />
  );
}
