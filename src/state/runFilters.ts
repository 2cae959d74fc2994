import { create } from 'zustand';
import type { FindingCode } from '../analysis';
import type { ReviewFilter } from './reviews';

/*
 * How the loaded rollouts are looked at: the run list's filters and sort, the groups view's sort, page and
 * finding filter. UI state, not selection: a link names a rollout, not the way someone was browsing to it.
 * It lives in the store so it survives opening a rollout and coming back.
 */

export type RunSortKey =
  | 'file'
  | 'line'
  | 'rollout'
  | 'task'
  | 'group'
  | 'policy'
  | 'termination'
  | 'reward'
  | 'advantage'
  | 'steps'
  | 'regressions'
  | 'errors'
  | 'warnings'
  | 'mismatch'
  | 'kl';

type SortDir = 'asc' | 'desc';

export interface RunSort {
  key: RunSortKey;
  dir: SortDir;
}

/** In the policy signal or excluded from it (shared/trajectory-format.md §4). */
export type SignalFilter = 'all' | 'in' | 'excluded';

export interface RunFilters {
  /** Terminations to show; empty shows every termination. */
  terminations: readonly string[];
  signal: SignalFilter;
  /** Only rollouts with a finding of their own. */
  hasFindings: boolean;
  hasRegressions: boolean;
  /** Only rollouts with this finding, their own or their group's. */
  code: FindingCode | null;
  /** Matched, ignoring case, against rollout_id, attempt_id, task_id and group_id; every word must match. */
  text: string;
  /** By the reviewer's mark (grader audit): rollouts not yet reviewed, or marked disagree. */
  review: 'all' | ReviewFilter;
  /** Only rollouts whose §10 max |d| is above this; held in the URL (`mis=`), passed in by the run list. */
  mismatchAbove?: number | null;
}

export type GroupSortKey = 'file' | 'mean-asc' | 'mean-desc' | 'std-asc' | 'std-desc' | 'zero-variance' | 'findings';

interface GroupsBrowse {
  sort: GroupSortKey;
  /** 0-based page; null until the person pages, meaning the page that holds the selected rollout's group. */
  page: number | null;
  /** Only groups with this group finding. */
  code: FindingCode | null;
}

export interface RunFiltersState {
  filters: RunFilters;
  /** null: file order. */
  sort: RunSort | null;
  groups: GroupsBrowse;
}

export const noRunFilters: RunFilters = {
  terminations: [],
  signal: 'all',
  hasFindings: false,
  hasRegressions: false,
  code: null,
  text: '',
  review: 'all',
};

export const initialRunFiltersState: RunFiltersState = {
  filters: noRunFilters,
  sort: null,
  groups: { sort: 'file', page: null, code: null },
};

/** Whether any filter hides rows (sorting alone does not). */
export function isFiltered(f: RunFilters): boolean {
  return (
    f.terminations.length > 0 ||
    f.signal !== 'all' ||
    f.hasFindings ||
    f.hasRegressions ||
    f.code !== null ||
    f.text.trim() !== '' ||
    f.review !== 'all' ||
    (f.mismatchAbove ?? null) !== null
  );
}

export function setRunFilters(state: RunFiltersState, patch: Partial<RunFilters>): RunFiltersState {
  const changed = (Object.keys(patch) as (keyof RunFilters)[]).some((k) => patch[k] !== state.filters[k]);
  return changed ? { ...state, filters: { ...state.filters, ...patch } } : state;
}

/** Adds the termination to the shown ones, or removes it. */
export function toggleTermination(state: RunFiltersState, termination: string): RunFiltersState {
  const { terminations } = state.filters;
  const next = terminations.includes(termination) ? terminations.filter((t) => t !== termination) : [...terminations, termination];
  return setRunFilters(state, { terminations: next });
}

export function clearRunFilters(state: RunFiltersState): RunFiltersState {
  return isFiltered(state.filters) ? { ...state, filters: noRunFilters } : state;
}

/** A header click: ascending, then descending, then back to file order. */
export function cycleSort(state: RunFiltersState, key: RunSortKey): RunFiltersState {
  const { sort } = state;
  if (sort?.key !== key) return { ...state, sort: { key, dir: 'asc' } };
  return { ...state, sort: sort.dir === 'asc' ? { key, dir: 'desc' } : null };
}

/** A new order starts again on the first page. */
export function setGroupSort(state: RunFiltersState, sort: GroupSortKey): RunFiltersState {
  return state.groups.sort === sort ? state : { ...state, groups: { ...state.groups, sort, page: 0 } };
}

export function setGroupPage(state: RunFiltersState, page: number): RunFiltersState {
  const p = Math.max(0, Math.floor(page));
  return state.groups.page === p ? state : { ...state, groups: { ...state.groups, page: p } };
}

export function setGroupCode(state: RunFiltersState, code: FindingCode | null): RunFiltersState {
  return state.groups.code === code ? state : { ...state, groups: { ...state.groups, code, page: 0 } };
}

interface RunFiltersActions {
  setFilters(patch: Partial<RunFilters>): void;
  toggleTermination(termination: string): void;
  clearFilters(): void;
  cycleSort(key: RunSortKey): void;
  setGroupSort(sort: GroupSortKey): void;
  setGroupPage(page: number): void;
  setGroupCode(code: FindingCode | null): void;
}

const useRunFiltersStore = create<RunFiltersState & { actions: RunFiltersActions }>()((set) => ({
  ...initialRunFiltersState,
  actions: {
    setFilters: (patch) => set((s) => setRunFilters(s, patch)),
    toggleTermination: (t) => set((s) => toggleTermination(s, t)),
    clearFilters: () => set((s) => clearRunFilters(s)),
    cycleSort: (key) => set((s) => cycleSort(s, key)),
    setGroupSort: (sort) => set((s) => setGroupSort(s, sort)),
    setGroupPage: (page) => set((s) => setGroupPage(s, page)),
    setGroupCode: (code) => set((s) => setGroupCode(s, code)),
  },
}));

export const useRunFilters = () => useRunFiltersStore((s) => s.filters);
export const useRunSort = () => useRunFiltersStore((s) => s.sort);
export const useGroupsBrowse = () => useRunFiltersStore((s) => s.groups);
/** Actions never change, so reading them never re-renders. */
export const useRunFiltersActions = () => useRunFiltersStore((s) => s.actions);
