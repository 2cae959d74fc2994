import { describe, expect, it } from 'vitest';
import { buildRegradeRow } from '../../testing/regradeRows';
import { regradeGraders } from './graders';

describe('regradeGraders', () => {
  it('names each grader command of a table once, in first-seen order', () => {
    const rows = [{ grader: 'node g.mjs' }, { grader: 'other' }, { grader: 'node g.mjs', line: 2 }].map(buildRegradeRow);
    expect(regradeGraders(rows)).toEqual(['node g.mjs', 'other']);
  });
});
