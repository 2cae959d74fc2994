/** A point of a chart over training steps: the steps it sums, the first of them its label. */
export interface StepBin {
  step: number;
  stepTo: number;
}

/**
 * Width of one digit of an axis label (11 px sans; 0.556 em in Arial, 0.636 em in DejaVu Sans), rounded up:
 * labels are placed by this estimate, never measured.
 */
export const TICK_CHAR_PX = 7.2;
/** Room kept between two labels, as recharts' `minTickGap`. */
export const MIN_TICK_GAP = 16;

/**
 * The steps the x axis labels: the first and the last point, and between them the points at round steps
 * (multiples of 1, 2 or 5 x 10^k, the smallest such increment whose labels do not collide at this width).
 * The axis is one band per point (a category axis: a run's steps may have gaps), so positions are by index.
 *
 * Why not recharts' own `interval="preserveStartEnd"`: it labels whichever points fit (0, 85, 190, 310, ...,
 * 995 on the 1,000-step bench run), and finds them by measuring candidate labels in the DOM during the
 * chart's render. Here the labels are placed by an estimate of their width, never measured.
 */
export function stepTicks(rows: readonly StepBin[], plotWidth: number, charWidth = TICK_CHAR_PX, gap = MIN_TICK_GAP): number[] {
  const n = rows.length;
  const first = rows[0];
  const lastRow = rows[n - 1];
  if (!first || !lastRow) return [];
  const last = n - 1;
  const band = plotWidth / n;
  const width = (i: number) => String(rows[i]?.step ?? '').length * charWidth;
  const fits = (i: number, j: number) => (j - i) * band >= (width(i) + width(j)) / 2 + gap;
  if (n === 1 || !fits(0, last)) return [first.step];
  const span = lastRow.step - first.step;
  // No more labels than could ever fit side by side: the smallest increment worth trying.
  const most = Math.max(1, Math.floor(plotWidth / (charWidth + gap)));
  for (const d of increments(span / most, span)) {
    const at = [0];
    for (let m = (Math.floor(first.step / d) + 1) * d; m < lastRow.step; m += d) {
      const i = rowHolding(rows, m);
      if (i > (at[at.length - 1] ?? 0) && i < last) at.push(i);
    }
    // The last point is always labelled: a round step just before it gives way.
    while (at.length > 1 && !fits(at[at.length - 1] ?? 0, last)) at.pop();
    at.push(last);
    if (at.every((i, k) => k === 0 || fits(at[k - 1] ?? 0, i))) return at.map((i) => rows[i]?.step ?? 0);
  }
  return [first.step, lastRow.step];
}

/** 1, 2, 5, 10, 20, 50, ...: from the first not below `from` to the first past `to`. */
function* increments(from: number, to: number): Generator<number> {
  for (let p = 10 ** Math.floor(Math.log10(Math.max(from, 1))); ; p *= 10) {
    for (const k of [1, 2, 5]) {
      const d = k * p;
      if (d < from) continue;
      yield d;
      if (d > to) return;
    }
  }
}

/** The index of the point whose steps hold `step`, else of the first point after it (a gap in the steps). */
function rowHolding(rows: readonly StepBin[], step: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((rows[mid]?.stepTo ?? 0) < step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
