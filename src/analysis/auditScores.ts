import type { Rollout } from '../format';
import { type AuditSteps, auditSteps } from './auditSteps';

export interface ProcessScoreRow {
  /** 1-based step, or null for scores that name no step. */
  step: number | null;
  /** The step's tool, or null when the step does not exist (or no step was named). */
  tool: string | null;
  /** `steps[i].process_reward`, when recorded. */
  processReward: number | null;
  /** `grading.process_scores` entries naming this step, in file order. */
  scores: Array<{ name: string | null; value: number | null }>;
  /** The score names a step number the record does not have. */
  missingStep: boolean;
}

/**
 * Per-step process scores from both places the format keeps them: each step's `process_reward` and the
 * grader's `process_scores`. One row per step that has either, in step order; scores naming no step come
 * last, and scores naming a step that does not exist are kept and marked.
 */
export function processScoreRows(
  record: Pick<Rollout, 'steps' | 'grading'>,
  processRewards: AuditSteps['processRewards'] = auditSteps(record).processRewards,
): ProcessScoreRow[] {
  const steps = record.steps ?? [];
  const rows = new Map<number | null, ProcessScoreRow>();
  const row = (step: number | null): ProcessScoreRow => {
    let r = rows.get(step);
    if (!r) {
      const s = step === null ? undefined : steps[step - 1];
      r = { step, tool: s?.tool ?? null, processReward: null, scores: [], missingStep: step !== null && s === undefined };
      rows.set(step, r);
    }
    return r;
  };
  for (const p of processRewards) row(p.step).processReward = p.reward;
  for (const p of record.grading?.process_scores ?? []) row(p.step ?? null).scores.push({ name: p.name ?? null, value: p.value ?? null });
  return [...rows.values()].sort((a, b) => (a.step ?? Number.POSITIVE_INFINITY) - (b.step ?? Number.POSITIVE_INFINITY));
}

/** Grader name and version from `grading.grader`, else the record's `grader`; `differs` when both exist and disagree. */
export function graderIdentity(record: Pick<Rollout, 'grader' | 'grading'>): {
  name: string | null;
  version: string | null;
  differs: boolean;
} {
  const inGrading = record.grading?.grader;
  const top = record.grader;
  const g = inGrading ?? top;
  const differs = inGrading !== undefined && top !== undefined && (inGrading.name !== top.name || inGrading.version !== top.version);
  return { name: g?.name ?? null, version: g?.version ?? null, differs };
}
