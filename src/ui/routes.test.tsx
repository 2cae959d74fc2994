// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { View } from '../state';
import { routeOf } from './routes';

const VIEWS: View[] = ['list', 'rollout', 'groups', 'modes', 'run', 'search', 'compare', 'checkpoints', 'queue', 'regrade'];

describe('the route table', () => {
  it('gives each view its own page; the run page only with a run open (files show the run list)', () => {
    for (const view of VIEWS) expect(routeOf(view, true).view).toBe(view);
    expect(VIEWS.filter((v) => routeOf(v, false).view !== v)).toEqual(['run']);
    expect(routeOf('run', false)).toBe(routeOf('list', false));
  });

  it('keeps the run page and the run list mounted, loads the chart pages when first shown, and lists a whole run only where the columns suffice', () => {
    expect(VIEWS.filter((v) => routeOf(v, true).keep)).toEqual(['list', 'run']);
    expect(VIEWS.filter((v) => routeOf(v, true).load)).toEqual(['groups', 'modes', 'run', 'regrade']);
    expect(VIEWS.filter((v) => routeOf(v, true).wholeRun)).toEqual(['modes', 'run']);
    expect(VIEWS.filter((v) => routeOf(v, true).noProblems)).toEqual(['run']);
  });
});
