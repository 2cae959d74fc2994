import { describe, expect, it } from 'vitest';
import {
  clearRunFilters,
  cycleSort,
  initialRunFiltersState as initial,
  isFiltered,
  noRunFilters,
  setGroupCode,
  setGroupPage,
  setGroupSort,
  setRunFilters,
  toggleTermination,
} from './runFilters';

describe('run list filters', () => {
  it('starts with nothing filtered and file order', () => {
    expect(isFiltered(initial.filters)).toBe(false);
    expect(initial.sort).toBeNull();
  });

  it('sets filters, and returns the same state when nothing changes', () => {
    const s = setRunFilters(initial, { text: 'r-g1', signal: 'excluded' });
    expect(s.filters).toMatchObject({ text: 'r-g1', signal: 'excluded', hasFindings: false });
    expect(isFiltered(s.filters)).toBe(true);
    expect(setRunFilters(s, { text: 'r-g1' })).toBe(s);
    expect(isFiltered(setRunFilters(initial, { text: '   ' }).filters)).toBe(false);
  });

  it('toggles terminations in and out of the shown set', () => {
    let s = toggleTermination(initial, 'finished');
    s = toggleTermination(s, 'cancelled');
    expect(s.filters.terminations).toEqual(['finished', 'cancelled']);
    s = toggleTermination(s, 'finished');
    expect(s.filters.terminations).toEqual(['cancelled']);
  });

  it('clearing filters keeps the sort', () => {
    const s = cycleSort(setRunFilters(initial, { hasRegressions: true, code: 'W_ORPHAN_CALL' }), 'reward');
    const cleared = clearRunFilters(s);
    expect(cleared.filters).toBe(noRunFilters);
    expect(cleared.sort).toEqual({ key: 'reward', dir: 'asc' });
    expect(clearRunFilters(cleared)).toBe(cleared);
  });

  it('a header cycles ascending, descending, file order; another header starts ascending', () => {
    const a = cycleSort(initial, 'reward');
    expect(a.sort).toEqual({ key: 'reward', dir: 'asc' });
    const d = cycleSort(a, 'reward');
    expect(d.sort).toEqual({ key: 'reward', dir: 'desc' });
    expect(cycleSort(d, 'reward').sort).toBeNull();
    expect(cycleSort(d, 'steps').sort).toEqual({ key: 'steps', dir: 'asc' });
  });
});

describe('groups browsing', () => {
  it('starts on the page of the selected rollout (page null)', () => {
    expect(initial.groups).toEqual({ sort: 'file', page: null, code: null });
  });

  it('a new sort or finding filter goes back to the first page', () => {
    const paged = setGroupPage(initial, 3);
    expect(paged.groups.page).toBe(3);
    expect(setGroupSort(paged, 'std-asc').groups).toEqual({ sort: 'std-asc', page: 0, code: null });
    expect(setGroupCode(paged, 'W_ZERO_VARIANCE_GROUP').groups).toEqual({ sort: 'file', page: 0, code: 'W_ZERO_VARIANCE_GROUP' });
    expect(setGroupSort(initial, 'file')).toBe(initial);
  });

  it('pages are whole and never negative', () => {
    expect(setGroupPage(initial, -2).groups.page).toBe(0);
    expect(setGroupPage(initial, 2.7).groups.page).toBe(2);
  });
});
