import { measures, type RunTrends, type StepTotals, type TrendMeasures } from '../../analysis';

/** One step's row for the charts: the measures, termination shares `t0..`, finding-code shares `c0..`. */
export interface ChartRow extends TrendMeasures {
  step: number;
  rollouts: number;
  /** Reward mean minus and plus one standard deviation (the band), or null. */
  band: [number, number] | null;
  [share: `t${number}` | `c${number}`]: number;
}

export function chartRows(trends: RunTrends): ChartRow[] {
  return trends.points.map((p) => {
    const m = measures(p);
    const row: ChartRow = {
      step: p.step,
      rollouts: p.rollouts,
      ...m,
      band: m.rewardMean !== null && m.rewardStd !== null ? [m.rewardMean - m.rewardStd, m.rewardMean + m.rewardStd] : null,
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
export function topCodes(trends: RunTrends, codeNames: readonly string[], limit = 6): { bit: number; code: string; rollouts: number }[] {
  const totals = codeNames.map((code, bit) => ({ bit, code, rollouts: trends.points.reduce((n, p) => n + (p.codeCounts[bit] ?? 0), 0) }));
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
