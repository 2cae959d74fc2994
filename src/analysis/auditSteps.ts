import type { Step } from '../format';
import { chunksOf } from './chunked';
import { type Pass, runPass } from './passes';

/**
 * What the grader audit reads of a rollout's steps, gathered in one pass: a rollout may have a million
 * steps, and three walks over them (first finish, last tests, process rewards) cost the page ~50 ms.
 */
export interface AuditSteps {
  /** 1-based number of the first `finish` step, or null. */
  finish: number | null;
  /** 1-based number of the last `run_tests` step, or null. */
  lastRunTests: number | null;
  /** Each step that records a `process_reward`, in step order. */
  processRewards: { step: number; reward: number }[];
}

export function emptyAuditSteps(): AuditSteps {
  return { finish: null, lastRunTests: null, processRewards: [] };
}

/**
 * Folds `steps[from..to)` into `into`, `steps[0]` being step number `first` (a run of a longer list).
 * Called over consecutive ranges from 0 it gives what one pass over all of them gives, so a view can
 * spread the pass over several tasks.
 */
export function scanAuditSteps(steps: readonly Step[], into: AuditSteps, from: number, to: number, first = 1): void {
  const end = Math.min(to, steps.length);
  for (let i = from; i < end; i++) {
    const s = steps[i];
    if (!s) continue;
    const n = first + i;
    if (s.tool === 'finish' && into.finish === null) into.finish = n;
    else if (s.tool === 'run_tests') into.lastRunTests = n;
    if (s.process_reward !== undefined) into.processRewards.push({ step: n, reward: s.process_reward });
  }
}

/** The audit's pass over a record's steps as a Pass (src/analysis/passes.ts): a page runs it in slices. */
export function* auditStepsPass(record: { steps?: readonly Step[] }): Pass<AuditSteps> {
  const steps = record.steps ?? [];
  const into = emptyAuditSteps();
  // A run at a time (chunksOf): a huge rollout's steps are parsed a chunk at a time.
  for (const [from, run] of chunksOf(steps)) {
    scanAuditSteps(run, into, 0, run.length, from + 1);
    yield Math.min(1, (from + run.length) / steps.length);
  }
  return into;
}

/** The audit's facts about a record's steps, in one pass over them all. */
export function auditSteps(record: { steps?: readonly Step[] }): AuditSteps {
  return runPass(auditStepsPass(record));
}
