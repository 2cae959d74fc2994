import { mulberry32 } from '../random';

/*
 * A percentile bootstrap interval for a mean, seeded so the same data always gives the same interval
 * (a number that moves on every reload reads as a change). mulberry32 is a small, well-known 32-bit PRNG;
 * its quality is ample for resampling indices.
 */

export const BOOTSTRAP_SEED = 20261201;
export const BOOTSTRAP_RESAMPLES = 2000;

/** The `level` (0.95) percentile interval of the mean of `values`, from `resamples` resamples; null for none. */
export function bootstrapMeanInterval(
  values: readonly number[],
  { level = 0.95, resamples = BOOTSTRAP_RESAMPLES, seed = BOOTSTRAP_SEED } = {},
): [number, number] | null {
  const n = values.length;
  if (n === 0) return null;
  const rand = mulberry32(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(rand() * n)] ?? 0;
    means[r] = sum / n;
  }
  means.sort();
  const tail = (1 - level) / 2;
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))] ?? 0;
  return [at(tail), at(1 - tail)];
}
