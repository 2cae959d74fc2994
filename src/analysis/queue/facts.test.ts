import { describe, expect, it } from 'vitest';
import { scannerRuleIds } from './facts';

describe('scannerRuleIds', () => {
  it('reads each scanner hit’s rule id from its message, distinct and sorted, ignoring other findings', () => {
    expect(
      scannerRuleIds([
        { code: 'W_SCAN', message: 'repeated-call: The same call repeated (steps 1–3)' },
        { code: 'E_SCAN', message: 'edited-tests: Edited the tests (step 2)' },
        { code: 'W_SCAN', message: 'repeated-call: again (steps 7–9)' },
        { code: 'W_HIT_MAX_TOKENS', message: 'edited-tests: not a scanner' },
      ]),
    ).toEqual(['edited-tests', 'repeated-call']);
  });
});
