import { type Finding, joinTurns, type Regression, type RolloutSummary } from '../../../analysis';
import type { Rollout } from '../../../format';

export interface TurnItem {
  kind: 'turn';
  /** Stable React key. */
  key: string;
  /** 0-based segment index, or null for a step with no generation. */
  segment: number | null;
  /** 1-based step number, or null for a generation the harness did not execute. */
  step: number | null;
  regressions: Regression[];
  /** Later steps that revert this one. */
  revertedBy: number[];
  findings: Finding[];
}

/** The rows of the steps view, top to bottom: the task, one per turn, how it ended, the grader. */
export type StepItem = { kind: 'task' } | TurnItem | { kind: 'end' } | { kind: 'grader' };

export interface StepsModel {
  items: StepItem[];
  /** Findings about the whole rollout, or about a segment or step that has no row. */
  rolloutFindings: Finding[];
  /** Row index of each step number. */
  rowOfStep: Map<number, number>;
}

export function stepsModel(record: Rollout, summary: Pick<RolloutSummary, 'findings' | 'regressions'>): StepsModel {
  const turns: TurnItem[] = joinTurns(record).map((t) => ({
    kind: 'turn',
    key: t.segment !== null ? `s${t.segment}` : `t${t.step}`,
    segment: t.segment,
    step: t.step,
    regressions: t.step === null ? [] : summary.regressions.filter((r) => r.step === t.step),
    revertedBy: t.step === null ? [] : summary.regressions.flatMap((r) => (r.kind === 'revert' && r.of_step === t.step ? [r.step] : [])),
    findings: [],
  }));
  const bySegment = new Map<number, TurnItem>();
  const byStep = new Map<number, TurnItem>();
  for (const t of turns) {
    if (t.segment !== null) bySegment.set(t.segment, t);
    if (t.step !== null) byStep.set(t.step, t);
  }
  const rolloutFindings: Finding[] = [];
  for (const f of summary.findings) {
    const row = (f.segment !== null ? bySegment.get(f.segment) : undefined) ?? (f.step !== null ? byStep.get(f.step) : undefined);
    if (row) row.findings.push(f);
    else rolloutFindings.push(f);
  }
  const items: StepItem[] = [{ kind: 'task' }, ...turns, { kind: 'end' }, { kind: 'grader' }];
  const rowOfStep = new Map<number, number>();
  items.forEach((item, i) => {
    if (item.kind === 'turn' && item.step !== null) rowOfStep.set(item.step, i);
  });
  return { items, rolloutFindings, rowOfStep };
}
