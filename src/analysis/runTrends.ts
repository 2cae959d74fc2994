/*
 * A run's trends over `training_step` (shared/trajectory-format.md §9), computed from the run index's
 * columns in one pass: no row objects, so a million rollouts re-aggregate after a filter change in tens
 * of milliseconds. The columns are plain typed arrays (src/load/run/runColumns.ts holds them).
 */

/**
 * Codes and counts as a run holds them (src/load/run/runColumns.ts): as narrow as their values, one byte a
 * row until a value needs two, then two until one needs four.
 */
export type Unsigned = Uint8Array | Uint16Array | Uint32Array;

/** What the aggregation reads: one entry per row, index-aligned; string columns as dictionary codes. */
export interface TrendColumns {
  n: number;
  /** -1 when the rollout has no training step. */
  step: Int32Array;
  task: { codes: Unsigned };
  termination: { codes: Unsigned; values: readonly (string | null)[] };
  group: { codes: Unsigned; values: readonly unknown[] };
  inSignal: Uint8Array;
  /** NaN when null. */
  reward: Float64Array;
  generated: Unsigned;
  truncated: Uint8Array;
  regressions: Unsigned;
  /** The row's finding codes: an id into `codeSets`, each set ascending indices into `codeNames`. */
  codeSet: Unsigned;
  codeSets: readonly (readonly number[])[];
  codeNames: readonly string[];
  /** NaN when null. */
  mismatchMax: Float32Array;
  klK3: Float32Array;
}

export interface TrendFilter {
  /** Task codes to keep; null keeps every task. */
  tasks: ReadonlySet<number> | null;
  /** Termination codes to keep; null keeps every termination. */
  terminations: ReadonlySet<number> | null;
}

const NO_FILTER: TrendFilter = { tasks: null, terminations: null };

/** Sums over the rollouts of one training step (or a range of them: sums add). */
export interface StepTotals {
  rollouts: number;
  inSignal: number;
  /** In the signal with a numeric reward: what reward statistics are over. */
  rewardN: number;
  rewardSum: number;
  rewardSumSq: number;
  /** Rollouts per termination code. */
  terminations: number[];
  /** Groups with two or more counted rewards, and those whose rewards are all equal (W_ZERO_VARIANCE_GROUP). */
  groups: number;
  zeroVarianceGroups: number;
  generatedSum: number;
  truncated: number;
  /** Rollouts with at least one regression. */
  regressed: number;
  /** Rollouts with each finding code, by its index in `codeNames`. */
  codeCounts: number[];
  mismatchN: number;
  mismatchMaxSum: number;
  klN: number;
  klSum: number;
}

export interface StepPoint extends StepTotals {
  step: number;
}

export interface RunTrends {
  points: StepPoint[];
  /** Rollouts that passed the filter but have no training step (not on the x axis). */
  withoutStep: number;
  /** Rollouts that passed the filter. */
  matched: number;
}

function emptyTotals(terminations: number, codes: number): StepTotals {
  return {
    rollouts: 0,
    inSignal: 0,
    rewardN: 0,
    rewardSum: 0,
    rewardSumSq: 0,
    terminations: new Array(terminations).fill(0),
    groups: 0,
    zeroVarianceGroups: 0,
    generatedSum: 0,
    truncated: 0,
    regressed: 0,
    codeCounts: new Array(codes).fill(0),
    mismatchN: 0,
    mismatchMaxSum: 0,
    klN: 0,
    klSum: 0,
  };
}

/**
 * One point per training step that has rollouts passing the filter, in step order. A group's
 * zero-variance verdict is taken over the group's filtered rollouts and counted at the step of its first.
 */
export function runTrends(c: TrendColumns, filter: TrendFilter = NO_FILTER): RunTrends {
  const { n, step } = c;
  const nTerm = c.termination.values.length;
  const nCodes = c.codeNames.length;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const s = step[i] ?? -1;
    if (s < 0) continue;
    if (s < lo) lo = s;
    if (s > hi) hi = s;
  }
  const span = hi >= lo ? hi - lo + 1 : 0;
  const byStep: (StepTotals | undefined)[] = new Array(span);
  const nGroups = c.group.values.length;
  const gN = new Uint32Array(nGroups);
  const gFirst = new Float64Array(nGroups);
  const gVaries = new Uint8Array(nGroups);
  const gStep = new Int32Array(nGroups).fill(-1);
  const { tasks, terminations } = filter;
  let withoutStep = 0;
  let matched = 0;
  for (let i = 0; i < n; i++) {
    if (tasks !== null && !tasks.has(c.task.codes[i] ?? 0)) continue;
    const term = c.termination.codes[i] ?? 0;
    if (terminations !== null && !terminations.has(term)) continue;
    matched++;
    const s = step[i] ?? -1;
    if (s < 0) {
      withoutStep++;
      continue;
    }
    let t = byStep[s - lo];
    if (t === undefined) {
      t = emptyTotals(nTerm, nCodes);
      byStep[s - lo] = t;
    }
    t.rollouts++;
    t.terminations[term] = (t.terminations[term] ?? 0) + 1;
    const signal = c.inSignal[i] === 1;
    if (signal) t.inSignal++;
    const r = c.reward[i] ?? Number.NaN;
    if (signal && !Number.isNaN(r)) {
      t.rewardN++;
      t.rewardSum += r;
      t.rewardSumSq += r * r;
      const g = c.group.codes[i] ?? 0;
      const k = gN[g] ?? 0;
      if (k === 0) {
        gFirst[g] = r;
        gStep[g] = s;
      } else if (gFirst[g] !== r) gVaries[g] = 1;
      gN[g] = k + 1;
    }
    t.generatedSum += c.generated[i] ?? 0;
    if (c.truncated[i] === 1) t.truncated++;
    if ((c.regressions[i] ?? 0) > 0) t.regressed++;
    for (const k of c.codeSets[c.codeSet[i] ?? 0] ?? []) t.codeCounts[k] = (t.codeCounts[k] ?? 0) + 1;
    const mm = c.mismatchMax[i] ?? Number.NaN;
    if (!Number.isNaN(mm)) {
      t.mismatchN++;
      t.mismatchMaxSum += mm;
    }
    const kl = c.klK3[i] ?? Number.NaN;
    if (!Number.isNaN(kl)) {
      t.klN++;
      t.klSum += kl;
    }
  }
  for (let g = 0; g < nGroups; g++) {
    if ((gN[g] ?? 0) < 2) continue;
    const t = byStep[(gStep[g] ?? 0) - lo];
    if (!t) continue;
    t.groups++;
    if (gVaries[g] === 0) t.zeroVarianceGroups++;
  }
  const points: StepPoint[] = [];
  byStep.forEach((t, k) => {
    if (t) points.push({ step: lo + k, ...t });
  });
  return { points, withoutStep, matched };
}

/** The scalar sums of StepTotals (the two per-code arrays add element by element). */
const SUMMED = [
  'rollouts',
  'inSignal',
  'rewardN',
  'rewardSum',
  'rewardSumSq',
  'groups',
  'zeroVarianceGroups',
  'generatedSum',
  'truncated',
  'regressed',
  'mismatchN',
  'mismatchMaxSum',
  'klN',
  'klSum',
] as const satisfies readonly (keyof StepTotals)[];

/** The totals of the points whose step is in [from, to]. */
export function totalsOver(points: readonly StepPoint[], from: number, to: number): StepTotals {
  const first = points[0];
  const out = emptyTotals(first?.terminations.length ?? 0, first?.codeCounts.length ?? 0);
  for (const p of points) {
    if (p.step < from || p.step > to) continue;
    for (const k of SUMMED) out[k] += p[k];
    p.terminations.forEach((v, k) => {
      out.terminations[k] = (out.terminations[k] ?? 0) + v;
    });
    p.codeCounts.forEach((v, k) => {
      out.codeCounts[k] = (out.codeCounts[k] ?? 0) + v;
    });
  }
  return out;
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** The measures a chart or a comparison shows, from totals; null where there is nothing to measure. */
export interface TrendMeasures {
  rewardMean: number | null;
  /** Sample standard deviation over the rollouts' rewards (n - 1), null below two. */
  rewardStd: number | null;
  signalShare: number | null;
  zeroVarianceShare: number | null;
  generatedMean: number | null;
  truncatedShare: number | null;
  regressionRate: number | null;
  mismatchMaxMean: number | null;
  klMean: number | null;
}

export function measures(t: StepTotals): TrendMeasures {
  const mean = ratio(t.rewardSum, t.rewardN);
  const variance = t.rewardN > 1 && mean !== null ? (t.rewardSumSq - t.rewardN * mean * mean) / (t.rewardN - 1) : null;
  return {
    rewardMean: mean,
    rewardStd: variance === null ? null : Math.sqrt(Math.max(0, variance)),
    signalShare: ratio(t.inSignal, t.rollouts),
    zeroVarianceShare: ratio(t.zeroVarianceGroups, t.groups),
    generatedMean: ratio(t.generatedSum, t.rollouts),
    truncatedShare: ratio(t.truncated, t.rollouts),
    regressionRate: ratio(t.regressed, t.rollouts),
    mismatchMaxMean: ratio(t.mismatchMaxSum, t.mismatchN),
    klMean: ratio(t.klSum, t.klN),
  };
}
