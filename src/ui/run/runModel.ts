import { measures, type RunTrends, type StepPoint, type StepTotals, type TrendMeasures, totalsOver } from '../../analysis';

/** One step's row for the charts (or a bin of steps): the measures, termination shares `t0..`, finding-code shares `c0..`. */
export interface ChartRow extends TrendMeasures {
  /** The first training step of the point, its label on the x axis. */
  step: number;
  /** The last training step it sums (the same as `step` unless the run has more steps than points drawn). */
  stepTo: number;
  rollouts: number;
  /** Reward mean minus and plus one standard deviation (the band), or null. */
  band: [number, number] | null;
  [share: `t${number}` | `c${number}`]: number;
}

/**
 * Points a chart draws at most: a chart is a few hundred pixels wide, so more steps than this are summed
 * into bins of consecutive steps (each bin's measures are over all its rollouts, not a mean of means).
 */
const MAX_POINTS = 200;

function binned(points: readonly StepPoint[], max: number): { step: number; stepTo: number; t: StepTotals }[] {
  const first = points[0]?.step ?? 0;
  const last = points[points.length - 1]?.step ?? 0;
  if (points.length <= max) return points.map((p) => ({ step: p.step, stepTo: p.step, t: p }));
  const width = Math.ceil((last - first + 1) / max);
  const out: { step: number; stepTo: number; t: StepTotals }[] = [];
  for (let from = first; from <= last; from += width) {
    const inBin = points.filter((p) => p.step >= from && p.step < from + width);
    if (inBin.length === 0) continue;
    out.push({ step: from, stepTo: Math.min(last, from + width - 1), t: totalsOver(inBin, from, from + width - 1) });
  }
  return out;
}

/** The bin (its row) that holds a training step, for selections made in steps and drawn in bins. */
export function rowOf(rows: readonly ChartRow[], step: number): ChartRow | undefined {
  return rows.find((r) => step >= r.step && step <= r.stepTo) ?? (step < (rows[0]?.step ?? 0) ? rows[0] : rows[rows.length - 1]);
}

export function chartRows(trends: RunTrends, max = MAX_POINTS): ChartRow[] {
  const bins = binned(trends.points, max).map((b) => ({ ...b, m: measures(b.t) }));
  // The band is clamped to the span the means cover, at least 0 to 1: a ±1 std band of a 0/1 reward
  // reaches below 0 and above 1, where no reward is.
  const means = bins.flatMap((b) => (b.m.rewardMean === null ? [] : [b.m.rewardMean]));
  const low = Math.min(0, ...means);
  const high = Math.max(1, ...means);
  return bins.map(({ step, stepTo, t: p, m }) => {
    const row: ChartRow = {
      step,
      stepTo,
      rollouts: p.rollouts,
      ...m,
      band:
        m.rewardMean !== null && m.rewardStd !== null
          ? [Math.max(low, m.rewardMean - m.rewardStd), Math.min(high, m.rewardMean + m.rewardStd)]
          : null,
    };
    p.terminations.forEach((v, k) => {
      row[`t${k}`] = p.rollouts > 0 ? v / p.rollouts : 0;
    });
    p.codeCounts.forEach((v, k) => {
      row[`c${k}`] = p.rollouts > 0 ? v / p.rollouts : 0;
    });
    return row;
  });
}

/** The finding codes worth a line: those any step has, most frequent first, at most `limit`. */
export function topCodes(trends: RunTrends, codeNames: readonly string[], limit = 6): { index: number; code: string; rollouts: number }[] {
  const totals = codeNames.map((code, index) => ({
    index,
    code,
    rollouts: trends.points.reduce((n, p) => n + (p.codeCounts[index] ?? 0), 0),
  }));
  return totals
    .filter((t) => t.rollouts > 0)
    .sort((a, b) => b.rollouts - a.rollouts)
    .slice(0, limit);
}

/** The rows of a comparison: a measure in range A, in range B, and B - A. */
export interface CompareRow {
  label: string;
  a: number | null;
  b: number | null;
  delta: number | null;
  /** How to print it: a share in percent, a count, or a measured number. */
  unit: 'share' | 'count' | 'number';
}

const COMPARED: { key: keyof TrendMeasures; label: string; unit: CompareRow['unit'] }[] = [
  { key: 'rewardMean', label: 'Reward mean', unit: 'number' },
  { key: 'rewardStd', label: 'Reward std', unit: 'number' },
  { key: 'signalShare', label: 'In signal', unit: 'share' },
  { key: 'zeroVarianceShare', label: 'Zero-variance groups', unit: 'share' },
  { key: 'generatedMean', label: 'Response length (tokens)', unit: 'number' },
  { key: 'truncatedShare', label: 'Truncated', unit: 'share' },
  { key: 'regressionRate', label: 'With a regression', unit: 'share' },
  { key: 'mismatchMaxMean', label: 'Mismatch max |Δlogp| (mean)', unit: 'number' },
  { key: 'klMean', label: 'KL k3 (mean)', unit: 'number' },
];

export function compareRows(a: StepTotals, b: StepTotals): CompareRow[] {
  const ma = measures(a);
  const mb = measures(b);
  return [
    { label: 'Rollouts', a: a.rollouts, b: b.rollouts, delta: b.rollouts - a.rollouts, unit: 'count' as const },
    ...COMPARED.map(({ key, label, unit }) => {
      const x = ma[key];
      const y = mb[key];
      return { label, a: x, b: y, delta: x === null || y === null ? null : y - x, unit };
    }),
  ];
}
