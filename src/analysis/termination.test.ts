import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { rolloutFindings } from './rolloutChecks';
import { terminationInfo } from './termination';

const codes = (r: ReturnType<typeof buildRollout>) => rolloutFindings(r).map((f) => f.code);

describe('termination semantics (§4)', () => {
  it.each([
    ['finished', true],
    ['budget_exhausted', true],
    ['invalid_call', true],
    ['infra_failure', false],
    ['cancelled', false],
  ])('%s: in signal %s', (t, inSignal) => {
    const info = terminationInfo(t);
    expect(info.known).toBe(true);
    expect(info.inSignal).toBe(inSignal);
    expect(info.meaning.startsWith(inSignal ? 'in signal' : 'excluded')).toBe(true);
  });

  it.each(['finished', 'budget_exhausted', 'invalid_call'])('%s with a numeric reward is clean', (termination) => {
    expect(codes(buildRollout({ termination, reward: 0 }))).toEqual([]);
  });

  it.each(['finished', 'budget_exhausted', 'invalid_call'])('%s with reward null is E_REWARD_MISSING', (termination) => {
    expect(codes(buildRollout({ termination, reward: null }))).toEqual(['E_REWARD_MISSING']);
  });

  it('a missing reward key is E_REWARD_MISSING too', () => {
    const { reward: _r, ...rest } = buildRollout();
    expect(rolloutFindings(rest).map((f) => f.message)).toEqual([expect.stringContaining('missing')]);
  });

  it.each(['infra_failure', 'cancelled'])('%s with reward null is clean and excluded', (termination) => {
    expect(codes(buildRollout({ termination, reward: null }))).toEqual([]);
    expect(terminationInfo(termination).inSignal).toBe(false);
  });

  it.each(['infra_failure', 'cancelled'])('%s with a numeric reward is E_EXCLUDED_HAS_REWARD', (termination) => {
    expect(codes(buildRollout({ termination, reward: 0 }))).toEqual(['E_EXCLUDED_HAS_REWARD']);
  });

  it('an unknown termination is W_UNKNOWN_TERMINATION and out of the signal, whatever its reward', () => {
    expect(codes(buildRollout({ termination: 'timeout', reward: 1 }))).toEqual(['W_UNKNOWN_TERMINATION']);
    expect(codes(buildRollout({ termination: 'timeout', reward: null }))).toEqual(['W_UNKNOWN_TERMINATION']);
    expect(terminationInfo('timeout')).toMatchObject({ known: false, inSignal: false });
  });

  it('does not mistake Object.prototype keys for terminations', () => {
    expect(terminationInfo('constructor').known).toBe(false);
    expect(terminationInfo('toString').inSignal).toBe(false);
  });
});
