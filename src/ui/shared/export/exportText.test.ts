import { describe, expect, it } from 'vitest';
import { Skips } from '../../../analysis';
import { noRunFilters } from '../../../state';
import { cliCommand, filtersWhere, shellQuote, skipsText, withSteps } from './exportText';

describe('export texts', () => {
  it('quotes a query for the shell only when it must, and keeps a quote inside it', () => {
    expect(shellQuote('term:finished')).toBe('term:finished');
    expect(shellQuote('tool:edit "a b"')).toBe(`'tool:edit "a b"'`);
    expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
    expect(cliCommand(['rollouts.jsonl'], 'reward>0 -has:signal')).toBe(
      `trajscope export rollouts.jsonl --where 'reward>0 -has:signal' --as parquet --out export.parquet`,
    );
    expect(cliCommand(['run dir'], null)).toBe(`trajscope export 'run dir' --as parquet --out export.parquet`);
  });

  it('adds a run’s selected steps to the query', () => {
    expect(withSteps('term:finished', null)).toBe('term:finished');
    expect(withSteps('term:finished ', { from: 3, to: 5 })).toBe('term:finished step>=3 step<=5');
    expect(withSteps('', { from: 4, to: 4 })).toBe('step:4');
  });

  it('says in words what the run list’s filters chose', () => {
    expect(filtersWhere(noRunFilters, null)).toBe('run list: every rollout');
    expect(
      filtersWhere(
        { ...noRunFilters, terminations: ['finished', 'budget_exhausted'], signal: 'in', code: 'W_SCAN', text: ' r-1 ' },
        {
          from: 1,
          to: 2,
        },
      ),
    ).toBe(
      `run list: training steps 1-2; termination finished or budget_exhausted; in signal; finding W_SCAN (own or group's); ids containing "r-1"`,
    );
  });

  it('counts what was left out, by reason', () => {
    const skips = new Skips();
    skips.add('rollout', 'excluded');
    skips.add('rollout', 'excluded');
    skips.add('group', 'with no reward gap');
    expect(skipsText(skips)).toBe('2 rollouts excluded, 1 group with no reward gap');
  });
});
