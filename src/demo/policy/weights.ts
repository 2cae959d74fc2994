import type { Observed } from './observe';
import type { Move } from './repertoire';

/**
 * Two hand-written checkpoints of the policy, as tables of unnormalised weights (each becomes a point
 * of params.ts, theta = log weight); v-2 fixes both bounds before testing more often
 * and finishes early, reverts and calls the missing tool less often.
 */
export interface PolicyWeights {
  version: string;
  read: { unread: number; again: number };
  readTests: { unread: number; again: number };
  /** Each fix once the file has been read; before that every edit is a guess (`blind`). */
  fix: readonly [number, number];
  blind: number;
  /** Applying an edit that is already applied. */
  again: number;
  /** Multiplies an unapplied fix after a test run that did not pass. */
  afterRedRun: number;
  distractor: number;
  revert: number;
  /** Undoing the wrong change right after tests went red. */
  revertDistractorAfterRedRun: number;
  /** Reverting something never applied. */
  stray: number;
  runTests: { afterEdit: number; idle: number };
  finish: { afterGreenRun: number; early: number; untouched: number };
  invalid: number;
}

export const WEIGHTS_V1: PolicyWeights = {
  version: 'v-1',
  read: { unread: 8, again: 0.15 },
  readTests: { unread: 1, again: 0.2 },
  fix: [4, 1.5],
  blind: 0.3,
  again: 0.04,
  afterRedRun: 2,
  distractor: 0.8,
  revert: 0.15,
  revertDistractorAfterRedRun: 2,
  stray: 0.02,
  runTests: { afterEdit: 4, idle: 0.3 },
  finish: { afterGreenRun: 12, early: 0.5, untouched: 0.05 },
  invalid: 0.05,
};

export const WEIGHTS_V2: PolicyWeights = {
  ...WEIGHTS_V1,
  version: 'v-2',
  readTests: { unread: 0.5, again: 0.1 },
  fix: [4, 3.5],
  distractor: 0.25,
  revert: 0.04,
  finish: { afterGreenRun: 12, early: 0.15, untouched: 0.03 },
  invalid: 0.01,
};

/**
 * Weight of one move given what the policy has observed, read straight off a table; always > 0, so
 * every move stays possible. The policy samples from params.ts; tests check the two agree.
 */
export function moveWeight(move: Move, o: Observed, w: PolicyWeights): number {
  const red = o.lastRun !== null && o.lastRun.failed + o.lastRun.overBudget > 0;
  const green = o.lastRun !== null && !red && o.editsSinceTest === 0;
  const anyApplied = Object.values(o.applied).some(Boolean);
  const k = move.key;
  if (k === 'read') return o.readMain ? w.read.again : w.read.unread;
  if (k === 'read_tests') return o.readMain ? w.readTests.again : w.readTests.unread;
  if (k === 'fix:0' || k === 'fix:1') {
    if (o.applied[k]) return w.again;
    const base = o.readMain ? w.fix[k === 'fix:0' ? 0 : 1] : w.blind;
    return red ? base * w.afterRedRun : base;
  }
  if (k === 'distractor') return o.applied[k] ? w.again : o.readMain ? w.distractor : w.blind;
  if (k.startsWith('revert:')) {
    const target = k.slice('revert:'.length);
    if (!o.applied[target]) return w.stray;
    return target === 'distractor' && red && o.editsSinceTest === 0 ? w.revertDistractorAfterRedRun : w.revert;
  }
  if (k === 'run_tests') return o.editsSinceTest > 0 ? w.runTests.afterEdit : w.runTests.idle;
  if (k === 'finish') return green ? w.finish.afterGreenRun : anyApplied ? w.finish.early : w.finish.untouched;
  return w.invalid;
}
