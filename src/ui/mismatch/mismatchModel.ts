import { type MismatchPosition, mismatchStats } from '../../analysis';

/** One bar of the histogram of d: the half-open bin [x0, x1) (the last bin is closed). */
export interface Bin {
  x0: number;
  x1: number;
  mid: number;
  count: number;
}

/** Bins of the histogram of d: symmetric about 0 so agreement sits in the middle bar. */
const HISTOGRAM_BINS = 25;

/**
 * The histogram of d over `bins` equal bins spanning [-max|d|, max|d|]. An odd bin count puts d = 0 in a
 * bin of its own middle; all d = 0 gives one bar.
 */
export function histogram(ds: readonly number[], bins = HISTOGRAM_BINS): Bin[] {
  if (ds.length === 0) return [];
  let m = 0;
  for (const d of ds) m = Math.max(m, Math.abs(d));
  if (m === 0) return [{ x0: 0, x1: 0, mid: 0, count: ds.length }];
  const width = (2 * m) / bins;
  const out: Bin[] = Array.from({ length: bins }, (_, i) => {
    const x0 = -m + i * width;
    return { x0, x1: x0 + width, mid: x0 + width / 2, count: 0 };
  });
  for (const d of ds) {
    const i = Math.min(bins - 1, Math.floor((d + m) / width));
    const bin = out[i];
    if (bin) bin.count++;
  }
  return out;
}

export interface SegmentMeans {
  segment: number;
  n: number;
  meanD: number;
  meanAbs: number;
  maxAbs: number;
  /** Positions whose ratio exceeds the cap. */
  clipped: number;
}

/** §10's statistics per segment (each turn's generation), in segment order; segments with no compared position are left out. */
export function perSegment(positions: readonly MismatchPosition[], cap: number): SegmentMeans[] {
  const by = new Map<number, number[]>();
  for (const p of positions) {
    const ds = by.get(p.segment);
    if (ds) ds.push(p.d);
    else by.set(p.segment, [p.d]);
  }
  return [...by]
    .sort((a, b) => a[0] - b[0])
    .map(([segment, ds]) => {
      const m = mismatchStats(ds, cap);
      return {
        segment,
        n: m.n,
        meanD: ds.reduce((a, b) => a + b, 0) / m.n,
        meanAbs: m.mean_abs ?? 0,
        maxAbs: m.max_abs ?? 0,
        clipped: Math.round((m.ratio_clip_frac ?? 0) * m.n),
      };
    });
}

/** The `k` positions with the largest |d|, largest first (ties in sequence order). */
export function largestDeltas(positions: readonly MismatchPosition[], k: number): MismatchPosition[] {
  return [...positions].sort((a, b) => Math.abs(b.d) - Math.abs(a.d) || a.pos - b.pos).slice(0, k);
}

export interface RatioPoint {
  pos: number;
  r: number;
  clipped: boolean;
}

/** Points past which the ratio chart keeps, per bucket of positions, only its most extreme one. */
export const MAX_RATIO_POINTS = 2000;

/**
 * The importance ratio r = exp(d) at each compared position, along the training sequence. A long
 * sequence is thinned to the most extreme point (largest |d|) of each of MAX_RATIO_POINTS buckets,
 * and every clipped point is kept, so nothing a person looks for disappears.
 */
export function ratioPoints(positions: readonly MismatchPosition[], cap: number): { points: RatioPoint[]; thinned: boolean } {
  const all = positions.map((p) => ({ pos: p.pos, r: Math.exp(p.d), clipped: Math.exp(p.d) > cap, d: p.d }));
  if (all.length <= MAX_RATIO_POINTS) return { points: all.map(({ d: _, ...p }) => p), thinned: false };
  const size = Math.ceil(all.length / MAX_RATIO_POINTS);
  const points: RatioPoint[] = [];
  for (let i = 0; i < all.length; i += size) {
    const bucket = all.slice(i, i + size);
    let best = bucket[0];
    for (const p of bucket) {
      if (p.clipped) points.push({ pos: p.pos, r: p.r, clipped: true });
      if (best && Math.abs(p.d) > Math.abs(best.d)) best = p;
    }
    if (best && !best.clipped) points.push({ pos: best.pos, r: best.r, clipped: false });
  }
  return { points: points.sort((a, b) => a.pos - b.pos), thinned: true };
}
