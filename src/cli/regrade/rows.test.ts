import { describe, expect, it } from 'vitest';
import type { RegradeRow } from '../../format';
import { rowFrom, summarizeRows, summaryText } from './rows';
import { parseGraderOutput } from './runGrader';

const row = (o: Partial<RegradeRow> = {}): RegradeRow => ({
  file: 'f.jsonl',
  line: 1,
  rollout_id: 'r',
  attempt_id: null,
  task_id: 't',
  old_reward: 0,
  old_verdict: 'fail',
  new_reward: 1,
  new_verdict: 'pass',
  error_kind: null,
  error: null,
  details: null,
  duration_ms: 3,
  grader: 'g',
  ...o,
});

describe('parseGraderOutput', () => {
  it('reads a JSON verdict, also after log lines', () => {
    expect(parseGraderOutput('{"reward": 1, "verdict": "pass", "details": {"a": [1]}}')).toEqual({
      ok: true,
      reward: 1,
      verdict: 'pass',
      details: '{"a":[1]}',
    });
    expect(parseGraderOutput('running tests...\n{"reward": 0}\n\n')).toEqual({ ok: true, reward: 0, verdict: null, details: null });
  });
  it('refuses garbage, a missing or non-finite reward and a non-string verdict', () => {
    expect(parseGraderOutput('')).toMatchObject({ ok: false, message: 'printed nothing' });
    expect(parseGraderOutput('hello')).toMatchObject({ ok: false });
    expect(parseGraderOutput('[1]')).toMatchObject({ ok: false });
    expect(parseGraderOutput('{"reward": "1"}')).toMatchObject({ ok: false });
    expect(parseGraderOutput('{"verdict": "pass"}')).toMatchObject({ ok: false });
    expect(parseGraderOutput('{"reward": 1, "verdict": 3}')).toMatchObject({ ok: false });
  });
});

describe('summarizeRows', () => {
  it('counts graded, errors by kind and flips old → new', () => {
    const s = summarizeRows([
      row(),
      row({ old_verdict: 'pass', new_verdict: 'pass' }),
      row({ new_verdict: null, new_reward: 0 }),
      row({ error_kind: 'timeout', new_verdict: null, new_reward: null }),
      row({ error_kind: 'timeout', new_verdict: null, new_reward: null }),
    ]);
    expect(s.graded).toBe(3);
    expect(s.agree).toBe(2);
    expect([...s.flips]).toEqual([['fail → pass', 1]]);
    expect([...s.errors]).toEqual([['timeout', 2]]);
    expect(summaryText(s, 4, 1.25)).toContain('5 rollouts: 3 graded, 2 errors (4 already in the journal');
  });
});

describe('rowFrom', () => {
  it('reads back a journal row and refuses a spoiled one', () => {
    const r = row();
    expect(rowFrom(JSON.parse(JSON.stringify(r)))).toEqual(r);
    expect(rowFrom({ ...r, line: '1' })).toBeNull();
    expect(rowFrom({ ...r, error_kind: 'whatever' })).toBeNull();
    expect(rowFrom(null)).toBeNull();
  });
});
