import { bootstrapMeanInterval } from './bootstrap';

/*
 * Two checkpoints (or step ranges, or files) task by task (docs/adr/0016). Rollouts are split into side A
 * and side B by a cohort, paired by `task_id`, and each task's reward is compared:
 *   mean      the mean of the task's group means (a group is one GRPO group: "sample within a task by
 *             group mean", so a task sampled in two groups of 8 and one of 2 weighs each group once)
 *   pass rate the share of its rollouts with full credit (reward >= PASS_REWARD)
 *   mix       the share of each termination
 * A task improved when B's mean is above A's, regressed when below, unchanged when equal (|Δ| < EPS).
 * The summary's mean change is over tasks on both sides, with a seeded bootstrap interval (bootstrap.ts).
 */

/** Full credit: the contract's "pass → 1". */
export const PASS_REWARD = 1;
const EPS = 1e-9;

export interface CohortRow {
  key: string;
  task_id: string;
  group_id: string;
  reward: number | null;
  termination: string;
  policy: string | null;
  step: number | null;
  file: string;
}

export type Cohort = { kind: 'policy'; policy: string } | { kind: 'steps'; from: number; to: number } | { kind: 'file'; file: string };

function inCohort(c: Cohort, r: CohortRow): boolean {
  if (c.kind === 'policy') return r.policy === c.policy;
  if (c.kind === 'file') return r.file === c.file;
  return r.step !== null && r.step >= c.from && r.step <= c.to;
}

interface TaskSide {
  rollouts: number;
  /** Mean of group means over rollouts with a reward; null when none has one. */
  mean: number | null;
  passRate: number | null;
  /** Share of each termination, by first appearance. */
  mix: Array<[termination: string, share: number]>;
  /** The rollout whose reward is closest to `mean` (first on a tie): the one a pair opens. */
  representative: string | null;
}

export type TaskVerdict = 'improved' | 'regressed' | 'unchanged' | 'only-a' | 'only-b';

export interface TaskComparison {
  task_id: string;
  a: TaskSide | null;
  b: TaskSide | null;
  /** B's mean minus A's; null unless both have one. */
  delta: number | null;
  passDelta: number | null;
  verdict: TaskVerdict;
}

export interface CheckpointSummary {
  /** Tasks on both sides with a reward on each. */
  paired: number;
  improved: number;
  regressed: number;
  unchanged: number;
  onlyA: number;
  onlyB: number;
  meanDelta: number | null;
  /** 95% percentile bootstrap interval of `meanDelta` over the paired tasks. */
  interval: [number, number] | null;
}

function side(rows: readonly CohortRow[]): TaskSide {
  const groups = new Map<string, number[]>();
  const mix = new Map<string, number>();
  let rewarded = 0;
  let passed = 0;
  for (const r of rows) {
    mix.set(r.termination, (mix.get(r.termination) ?? 0) + 1);
    if (r.reward === null) continue;
    rewarded++;
    if (r.reward >= PASS_REWARD) passed++;
    const g = groups.get(r.group_id);
    if (g) g.push(r.reward);
    else groups.set(r.group_id, [r.reward]);
  }
  const means = [...groups.values()].map((g) => g.reduce((s, x) => s + x, 0) / g.length);
  const mean = means.length > 0 ? means.reduce((s, x) => s + x, 0) / means.length : null;
  let representative: string | null = null;
  let best = Number.POSITIVE_INFINITY;
  for (const r of rows) {
    const d = mean === null || r.reward === null ? Number.POSITIVE_INFINITY : Math.abs(r.reward - mean);
    if (representative === null || d < best) {
      representative = r.key;
      best = d;
    }
  }
  return {
    rollouts: rows.length,
    mean,
    passRate: rewarded > 0 ? passed / rewarded : null,
    mix: [...mix].map(([t, n]) => [t, n / rows.length]),
    representative,
  };
}

function byTask(rows: readonly CohortRow[]): Map<string, CohortRow[]> {
  const out = new Map<string, CohortRow[]>();
  for (const r of rows) {
    const list = out.get(r.task_id);
    if (list) list.push(r);
    else out.set(r.task_id, [r]);
  }
  return out;
}

/** Every task of either side, in first-seen order (A's first). A row in both cohorts counts on both sides. */
export function compareCheckpoints(
  rows: readonly CohortRow[],
  a: Cohort,
  b: Cohort,
): { tasks: TaskComparison[]; summary: CheckpointSummary } {
  const ta = byTask(rows.filter((r) => inCohort(a, r)));
  const tb = byTask(rows.filter((r) => inCohort(b, r)));
  const ids = [...new Set([...ta.keys(), ...tb.keys()])];
  const tasks = ids.map((task_id): TaskComparison => {
    const ra = ta.get(task_id);
    const rb = tb.get(task_id);
    const sa = ra ? side(ra) : null;
    const sb = rb ? side(rb) : null;
    const delta = sa?.mean != null && sb?.mean != null ? sb.mean - sa.mean : null;
    const passDelta = sa?.passRate != null && sb?.passRate != null ? sb.passRate - sa.passRate : null;
    const verdict: TaskVerdict = !sb
      ? 'only-a'
      : !sa
        ? 'only-b'
        : delta === null || Math.abs(delta) < EPS
          ? 'unchanged'
          : delta > 0
            ? 'improved'
            : 'regressed';
    return { task_id, a: sa, b: sb, delta, passDelta, verdict };
  });
  const deltas = tasks.flatMap((t) => (t.delta === null ? [] : [t.delta]));
  const count = (v: TaskVerdict) => tasks.filter((t) => t.verdict === v).length;
  return {
    tasks,
    summary: {
      paired: deltas.length,
      improved: count('improved'),
      regressed: count('regressed'),
      unchanged: count('unchanged'),
      onlyA: count('only-a'),
      onlyB: count('only-b'),
      meanDelta: deltas.length > 0 ? deltas.reduce((s, x) => s + x, 0) / deltas.length : null,
      interval: bootstrapMeanInterval(deltas),
    },
  };
}

/** A cohort as the URL holds it: `policy:v3`, `steps:100-300`, `file:run/step_12.jsonl`. */
export function printCohort(c: Cohort): string {
  if (c.kind === 'policy') return `policy:${c.policy}`;
  if (c.kind === 'file') return `file:${c.file}`;
  return `steps:${c.from}-${c.to}`;
}

/** The cohort a URL value names, or null when it names none. */
export function parseCohort(text: string | null): Cohort | null {
  if (text === null) return null;
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon);
  const value = text.slice(colon + 1);
  if (colon <= 0) return null;
  if (kind === 'policy') return { kind, policy: value };
  if (kind === 'file') return { kind, file: value };
  const m = /^(\d{1,9})-(\d{1,9})$/.exec(value);
  if (kind === 'steps' && m) return { kind, from: Number(m[1]), to: Number(m[2]) };
  return null;
}
