import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout, buildStep } from '../testing/builders';
import { auditSteps, auditStepsPass, emptyAuditSteps, scanAuditSteps } from './auditSteps';
import { lastDevTests } from './auditTests';
import { PASS_CHUNK } from './passes';
import { firstFinishStep } from './timeline';

const stepArb = fc.record({
  tool: fc.constantFrom('finish', 'run_tests', 'edit', 'read_file'),
  reward: fc.option(fc.double({ min: -1, max: 1, noNaN: true }), { nil: undefined }),
  passed: fc.boolean(),
});

describe('auditSteps', () => {
  it('is one pass that finds what the separate walks found, however it is sliced', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 10 }), (shape, cuts) => {
        const steps = shape.map((s, i) =>
          buildStep({
            tool_call_id: `c-${i}`,
            tool: s.tool,
            ...(s.reward === undefined ? {} : { process_reward: s.reward }),
            ...(s.tool === 'run_tests' ? { tests: { passed: s.passed ? ['t'] : [], failed: s.passed ? [] : ['t'] } } : {}),
          }),
        );
        const record = buildRollout({ steps });
        const whole = auditSteps(record);
        expect(whole.finish).toBe(firstFinishStep(record));
        expect(lastDevTests(record, whole.lastRunTests)).toEqual(lastDevTests(record));
        expect(whole.processRewards).toEqual(
          steps.flatMap((s, i) => (s.process_reward === undefined ? [] : [{ step: i + 1, reward: s.process_reward }])),
        );
        const sliced = emptyAuditSteps();
        let at = 0;
        for (const n of [...cuts, steps.length]) {
          scanAuditSteps(steps, sliced, at, at + n);
          at = Math.min(at + n, steps.length);
        }
        scanAuditSteps(steps, sliced, at, steps.length);
        expect(sliced).toEqual(whole);
      }),
      { seed: 18, numRuns: 200 },
    );
  });

  it('as a pass, yields its progress every PASS_CHUNK steps and returns what one walk returns', () => {
    const steps = Array.from({ length: 2 * PASS_CHUNK + 5 }, (_, i) =>
      buildStep({
        tool_call_id: `c-${i}`,
        tool: i === 3000 ? 'finish' : 'run_tests',
        ...(i % 1000 === 0 ? { process_reward: i / 5000 } : {}),
      }),
    );
    const record = buildRollout({ steps });
    const pass = auditStepsPass(record);
    const progress: number[] = [];
    let r = pass.next();
    for (; !r.done; r = pass.next()) progress.push(r.value);
    expect(progress).toEqual([PASS_CHUNK / steps.length, (2 * PASS_CHUNK) / steps.length, 1]);
    expect(r.value).toEqual(auditSteps(record));
    expect(r.value.finish).toBe(3001);
    expect(r.value.processRewards).toHaveLength(5);
  });

  it('has nothing to say of a record without steps', () => {
    expect(auditSteps(buildRollout({ steps: undefined }))).toEqual(emptyAuditSteps());
  });
});
