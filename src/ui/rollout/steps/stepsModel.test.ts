import { describe, expect, it } from 'vitest';
import type { Finding, Regression } from '../../../analysis';
import { packFindings, runPass, unpackFindings } from '../../../analysis';
import type { Rollout, Segment, Step } from '../../../format';
import { type StepItem, type StepsModel, stepsModel, stepsModelPass, type TurnItem } from './stepsModel';

// src/ui may not import the test builders (biome): small literals instead.
const seg = (call: string | null): Segment => ({ input_ids: [1], generated_ids: [2], old_logprobs: [-1], tool_call_id: call });
const step = (call: string): Step => ({ tool_call_id: call, tool: 'edit' });
const record = (segments: Segment[], steps: Step[]): Rollout => ({
  task_id: 't',
  rollout_id: 'r',
  segments,
  steps,
  termination: 'finished',
  reward: 1,
});
const finding = (code: Finding['code'], segment: number | null, step: number | null): Finding => ({
  code,
  severity: 'warning',
  segment,
  step,
  message: '',
});
const rows = (m: StepsModel): StepItem[] => Array.from({ length: m.count }, (_, i) => m.itemAt(i)).filter((i) => i !== undefined);
const turns = (m: StepsModel) => rows(m).filter((i): i is TurnItem => i.kind === 'turn');

describe('stepsModel', () => {
  it('puts the task first, one row per turn, then the end and the grader', () => {
    const m = stepsModel(record([seg('c-1'), seg('c-2')], [step('c-1'), step('c-2')]), { findings: [], regressions: [] });
    expect(rows(m).map((i) => i.kind)).toEqual(['task', 'turn', 'turn', 'end', 'grader']);
    expect(turns(m).map((t) => [t.segment, t.step, t.key])).toEqual([
      [0, 1, 's0'],
      [1, 2, 's1'],
    ]);
    expect([m.rowOfStep(1), m.rowOfStep(2), m.rowOfStep(3), m.rowOfStep(0)]).toEqual([1, 2, undefined, undefined]);
    expect(m.stepCount).toBe(2);
    // Asked twice, a row is the same object (a memoized row does not render again).
    expect(m.itemAt(1)).toBe(m.itemAt(1));
    expect(m.itemAt(5)).toBeUndefined();
    expect(Array.from({ length: m.count }, (_, i) => [m.kindAt(i), m.keyAt(i)])).toEqual(
      rows(m).map((r) => [r.kind, r.kind === 'turn' ? r.key : r.kind]),
    );
  });

  it('keeps turns with only a generation or only a step', () => {
    const m = stepsModel(record([seg('c-1'), seg(null)], [step('c-9'), step('c-1')]), { findings: [], regressions: [] });
    expect(turns(m).map((t) => [t.segment, t.step, t.key])).toEqual([
      [null, 1, 't1'],
      [0, 2, 's0'],
      [1, null, 's1'],
    ]);
  });

  it('marks regressions on their step and the step a revert undoes', () => {
    const regressions: Regression[] = [
      { step: 3, kind: 'revert', of_step: 1 },
      { step: 3, kind: 'test', tests: ['find 6'] },
    ];
    const m = stepsModel(record([seg('c-1'), seg('c-2'), seg('c-3')], [step('c-1'), step('c-2'), step('c-3')]), {
      findings: [],
      regressions,
    });
    const [first, , third] = turns(m);
    expect(third?.regressions).toEqual(regressions);
    expect(first?.revertedBy).toEqual([3]);
  });

  it('puts findings on their segment or step row and the rest in the rollout strip', () => {
    const onSegment = finding('W_CONTEXT_REWRITTEN', 1, null);
    const onStep = finding('W_ACTION_AFTER_FINISH', null, 1);
    const whole = finding('W_MISSING_METADATA', null, null);
    const nowhere = finding('E_LOGPROB_RANGE', 7, null);
    const m = stepsModel(record([seg('c-1'), seg('c-2')], [step('c-1'), step('c-2')]), {
      findings: [onSegment, onStep, whole, nowhere],
      regressions: [],
    });
    const [first, second] = turns(m);
    expect(first?.findings).toEqual([onStep]);
    expect(second?.findings).toEqual([onSegment]);
    expect(m.rolloutFindings).toEqual([whole, nowhere]);
  });

  it('on a long rollout, yields along the way and puts each of a finding per step on its row', () => {
    const n = 12_000;
    const steps = Array.from({ length: n }, (_, i) => step(`c-${i}`));
    const findings = Array.from({ length: n }, (_, i) => finding('W_ORPHAN_CALL', null, i + 1));
    const pass = stepsModelPass(record([], steps), { findings: [finding('W_MISSING_METADATA', null, null), ...findings], regressions: [] });
    let yields = 0;
    let r = pass.next();
    for (; !r.done; r = pass.next()) yields++;
    expect(yields).toBeGreaterThan(5);
    const m = r.value;
    expect(m.count).toBe(n + 3);
    expect(m.rowOfStep(9_000)).toBe(9_000);
    const far = m.itemAt(9_000);
    expect(far?.kind === 'turn' && far.findings).toEqual([findings[8_999]]);
    expect(m.rolloutFindings).toHaveLength(1);
    expect(runPass(stepsModelPass(record([], steps), { findings, regressions: [] })).count).toBe(n + 3);
  });

  it('places packed findings (a huge rollout’s, docs/adr/0019) on the same rows as plain ones', () => {
    const findings = [
      finding('W_CONTEXT_REWRITTEN', 1, null),
      finding('W_ACTION_AFTER_FINISH', null, 1),
      finding('W_MISSING_METADATA', null, null),
      finding('E_LOGPROB_RANGE', 7, null),
      finding('W_ORPHAN_CALL', null, 2),
      finding('W_ORPHAN_CALL', null, 9),
    ];
    const r = record([seg('c-1'), seg('c-2')], [step('c-1'), step('c-2')]);
    const pack = packFindings(findings);
    if (!pack) throw new Error('did not pack');
    const packed = stepsModel(r, { findings: unpackFindings(pack), regressions: [] });
    const plain = stepsModel(r, { findings, regressions: [] });
    expect(rows(packed)).toEqual(rows(plain));
    expect(packed.rolloutFindings).toEqual(plain.rolloutFindings);
    expect(plain.rolloutFindings).toHaveLength(3);
  });
});
