import { describe, expect, it } from 'vitest';
import type { DigestComparison, TestContrast } from '../../analysis';
import { auditFlags } from './auditFlags';
import type { WordedCheck } from './auditWords';

const ok: WordedCheck = { id: 'reward-verdict', status: 'ok', title: 'Reward', detail: 'reward 1 agrees: verdict pass → 1.' };
const agree: TestContrast = { kind: 'agree', passed: true, step: 2 };
const match: DigestComparison = { status: 'match', hex: 'ab' };
const noContrast: TestContrast = { kind: 'incomplete', missing: 'private-verdict', step: null };

describe('auditFlags', () => {
  it('says there is nothing to flag when every check passes and the digest matches', () => {
    expect(auditFlags([ok], match, agree)).toEqual([
      {
        tone: 'good',
        text: 'Grader: nothing to flag; the reward follows the verdict and the digest matches',
        target: 'audit-verdict-title',
      },
    ]);
    expect(auditFlags([ok], null, agree)[0]?.text).toBe('Grader: nothing to flag');
    // Without reward terms to check against, the headline does not claim the reward follows the verdict.
    const unchecked: WordedCheck = { ...ok, status: 'not-applicable', detail: 'reward 1: no terms.' };
    expect(auditFlags([unchecked], match, agree)[0]?.text).toBe('Grader: nothing to flag; the digest matches');
  });

  it('says there is nothing to audit, not "nothing to flag", for a rollout with no grading (issue 31)', () => {
    expect(auditFlags([], null, noContrast, false)).toEqual([
      { tone: 'none', text: 'No grading recorded: nothing to audit', target: 'audit-verdict-title' },
    ]);
    // What is wrong is still said without grading.
    const problem: WordedCheck = { ...ok, status: 'problem', detail: 'reward 1 but no verdict.' };
    expect(auditFlags([problem], null, noContrast, false).map((f) => f.tone)).toEqual(['bad']);
  });

  it('puts a digest mismatch first, then problems, the dev/private contrast, then what could not be checked', () => {
    const problem: WordedCheck = { ...ok, status: 'problem', detail: 'reward 1 disagrees with the contract: verdict fail → 0.' };
    const unknown: WordedCheck = {
      ...ok,
      id: 'excluded-reward',
      status: 'unknown',
      detail: 'reward 0: contract unknown for verdict "error".',
    };
    const flags = auditFlags(
      [unknown, problem],
      { status: 'mismatch', recorded: 'a', computed: 'b' },
      { kind: 'dev-pass-private-fail', step: 2 },
    );
    expect(flags.map((f) => [f.tone, f.text])).toEqual([
      ['bad', 'Digest mismatch'],
      ['bad', 'Reward 1 disagrees with the contract: verdict fail → 0'],
      ['bad', 'Dev tests passed, private verdict failed'],
      ['warn', 'Reward 0: contract unknown for verdict "error"'],
    ]);
  });

  it('warns about an absent or unrecognised digest', () => {
    expect(auditFlags([ok], { status: 'absent', computed: 'b' }, agree).map((f) => f.text)).toEqual(['No artifact digest recorded']);
    expect(auditFlags([ok], { status: 'unrecognised', recorded: 'md5:x', computed: 'b' }, agree)[0]?.tone).toBe('warn');
  });
});
