import { describe, expect, it } from 'vitest';
import { buildRegradeRow } from '../../testing/regradeRows';
import { parseRegradeJournal, RegradeTableError, regradeRowOf, regradeRowsOf } from './regradeTable';

const good = buildRegradeRow({
  line: 3,
  rollout_id: 'r',
  new_reward: 1,
  new_verdict: 'pass',
  details: '{"passed":[]}',
  duration_ms: 12,
  grader: 'node g.mjs',
});
const line = (o: object) => JSON.stringify({ ...good, ...o });

describe('regrade rows read back', () => {
  it('reads a journal, the last row per grader, file and line winning', () => {
    const text = [line({}), line({ grader: 'other', new_reward: 0 }), '', line({ new_verdict: 'error', new_reward: 0 })].join('\n');
    const rows = parseRegradeJournal(text);
    expect(rows.map((r) => [r.grader, r.new_verdict])).toEqual([
      ['node g.mjs', 'error'],
      ['other', 'pass'],
    ]);
  });

  it('leaves out a last line cut short, and names any other line that is not a row, with its field', () => {
    expect(parseRegradeJournal(`${line({})}\n{"file":"a.js`)).toHaveLength(1);
    expect(() => parseRegradeJournal(`{"file":\n${line({})}\n`)).toThrow(/^line 1: not JSON/);
    expect(() => parseRegradeJournal(`${line({})}\n${line({ new_reward: 'high' })}\n`)).toThrow(
      new RegradeTableError('line 2: new_reward must be a finite number or null, got "high"'),
    );
    expect(() => parseRegradeJournal(line({ line: 0 }))).toThrow(/line 1: line must be a whole number from 1, got 0/);
    expect(() => parseRegradeJournal(line({ grader: undefined }))).toThrow(/grader must be a string, got nothing/);
    expect(() => parseRegradeJournal('[1]')).toThrow(/line 1: must be an object, got an array/);
  });

  it('reads Parquet rows, a 64-bit integer as a number', () => {
    const [row] = regradeRowsOf([{ ...good, line: 7n, duration_ms: 3 }]);
    expect(row).toEqual({ ...good, line: 7, duration_ms: 3 });
    expect(() => regradeRowsOf([good, { ...good, rollout_id: 5 }])).toThrow(/^row 2: rollout_id must be a string, got 5/);
    expect(regradeRowOf({ ...good, attempt_id: undefined }, 'row 1').attempt_id).toBeNull();
  });
});
