import { mulberry32 } from '../random';

/**
 * Two raters' labels on the same n items as a K x K table: `counts[i][j]` items rater A called
 * `labels[i]` and rater B called `labels[j]`.
 */
export interface Confusion {
  labels: readonly string[];
  counts: number[][];
  n: number;
}

export interface Kappa {
  /** p_o = (sum of the diagonal) / n; null when n = 0. */
  agreement: number | null;
  /** p_e = sum over k of (row_k / n) (col_k / n); null when n = 0. */
  expected: number | null;
  /** (p_o - p_e) / (1 - p_e); null when n = 0 or p_e = 1 (see `kappaOfCounts`). */
  kappa: number | null;
}

/** Verdicts first in this order (a pass/fail table reads the same way everywhere), other labels after, sorted. */
const LABEL_ORDER = ['pass', 'fail', 'error'];

/** The labels in the order tables show them. */
export function orderLabels(labels: Iterable<string>): string[] {
  const rank = (l: string) => {
    const i = LABEL_ORDER.indexOf(l);
    return i === -1 ? LABEL_ORDER.length : i;
  };
  return [...new Set(labels)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/** The confusion table of label pairs (A's label, B's label) over `labels` (which must hold every label used). */
export function confusion(pairs: Iterable<readonly [string, string]>, labels: readonly string[]): Confusion {
  const at = new Map(labels.map((l, i) => [l, i]));
  const counts = labels.map(() => labels.map(() => 0));
  let n = 0;
  for (const [a, b] of pairs) {
    const i = at.get(a);
    const j = at.get(b);
    if (i === undefined || j === undefined) throw new Error(`label "${i === undefined ? a : b}" is not among ${labels.join(', ')}`);
    const row = counts[i];
    if (row) row[j] = (row[j] ?? 0) + 1;
    n++;
  }
  return { labels, counts, n };
}

/**
 * Cohen's kappa of a confusion table:
 *
 *   p_o = sum_k c_kk / n                        (observed agreement)
 *   p_e = sum_k (r_k / n) (c_k / n)             (r_k row sums: rater A; c_k column sums: rater B)
 *   kappa = (p_o - p_e) / (1 - p_e) = (n sum_k c_kk - sum_k r_k c_k) / (n^2 - sum_k r_k c_k)
 *
 * The last form is used: every term is a whole number, so p_e = 1 is told exactly (sum r_k c_k = n^2),
 * which happens only when both raters gave every item one and the same label. There kappa is 0/0:
 * undefined, returned as null (never NaN), though the agreement is 1.
 */
export function kappaOfCounts(counts: readonly (readonly number[])[]): Kappa {
  const k = counts.length;
  let n = 0;
  let diagonal = 0;
  const rows = new Array<number>(k).fill(0);
  const cols = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const c = counts[i]?.[j] ?? 0;
      n += c;
      rows[i] = (rows[i] ?? 0) + c;
      cols[j] = (cols[j] ?? 0) + c;
      if (i === j) diagonal += c;
    }
  }
  if (n === 0) return { agreement: null, expected: null, kappa: null };
  let chance = 0;
  for (let i = 0; i < k; i++) chance += (rows[i] ?? 0) * (cols[i] ?? 0);
  const nn = n * n;
  return {
    agreement: diagonal / n,
    expected: chance / nn,
    kappa: chance === nn ? null : (n * diagonal - chance) / (nn - chance),
  };
}

export interface BootstrapOptions {
  seed: number;
  resamples: number;
  /** The interval's coverage, 0.95 for a 95% interval. */
  level: number;
}

export interface KappaInterval {
  /** The percentile interval [lo, hi]; null when n = 0 or no resample had a defined kappa. */
  interval: [number, number] | null;
  /** Resamples whose kappa was undefined (every resampled item one label from both): left out of the percentiles. */
  undefinedResamples: number;
}

/**
 * A percentile bootstrap interval for kappa over items: `resamples` times, draw n items with replacement
 * (mulberry32 from `seed`, so the same data and seed give the same interval), take the kappa of the
 * resampled table; the interval is the (1 - level) / 2 and (1 + level) / 2 quantiles of those kappas
 * (the sorted value at round(q (m - 1)), as the checkpoint comparison's bootstrap picks it). `a` and `b`
 * hold each item's label index for rater A and rater B; `k` is the number of labels.
 */
export function bootstrapKappa(a: ArrayLike<number>, b: ArrayLike<number>, k: number, o: BootstrapOptions): KappaInterval {
  const n = a.length;
  if (n === 0) return { interval: null, undefinedResamples: 0 };
  const rand = mulberry32(o.seed);
  const counts = new Float64Array(k * k);
  const rows = new Float64Array(k);
  const cols = new Float64Array(k);
  const kappas: number[] = [];
  let undefinedResamples = 0;
  const nn = n * n;
  for (let r = 0; r < o.resamples; r++) {
    counts.fill(0);
    for (let s = 0; s < n; s++) {
      const i = Math.floor(rand() * n);
      const cell = (a[i] ?? 0) * k + (b[i] ?? 0);
      counts[cell] = (counts[cell] ?? 0) + 1;
    }
    rows.fill(0);
    cols.fill(0);
    let diagonal = 0;
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        const c = counts[i * k + j] ?? 0;
        rows[i] = (rows[i] ?? 0) + c;
        cols[j] = (cols[j] ?? 0) + c;
      }
      diagonal += counts[i * k + i] ?? 0;
    }
    let chance = 0;
    for (let i = 0; i < k; i++) chance += (rows[i] ?? 0) * (cols[i] ?? 0);
    if (chance === nn) undefinedResamples++;
    else kappas.push((n * diagonal - chance) / (nn - chance));
  }
  if (kappas.length === 0) return { interval: null, undefinedResamples };
  kappas.sort((x, y) => x - y);
  const m = kappas.length;
  const at = (q: number) => kappas[Math.min(m - 1, Math.max(0, Math.round(q * (m - 1))))] ?? 0;
  const tail = (1 - o.level) / 2;
  return { interval: [at(tail), at(1 - tail)], undefinedResamples };
}
