/*
 * Shading scales for the chips. Both are bucketed so that the legend can show every level a chip can
 * take, and so a chip needs a class, not an inline colour.
 */

/** Probability buckets, confident (light) to surprising (strong): a chip is in the first whose `min` it reaches. */
export const PROBABILITY_LEVELS = [
  { min: 0.9, label: '≥ 0.9' },
  { min: 0.7, label: '0.7–0.9' },
  { min: 0.5, label: '0.5–0.7' },
  { min: 0.3, label: '0.3–0.5' },
  { min: 0.1, label: '0.1–0.3' },
  { min: 0, label: '< 0.1' },
] as const;

/** Probability of a token from its log-probability. */
export function probability(logprob: number): number {
  return Math.exp(logprob);
}

/**
 * Shade level of a sampled token, 0 (confident, light) .. 5 (surprising, strong), from
 * p = exp(logprob); null when there is no log-prob. A log-prob above 0 (E_LOGPROB_RANGE) counts as p = 1.
 */
export function shade(logprob: number | null): number | null {
  if (logprob === null || Number.isNaN(logprob)) return null;
  const p = probability(logprob);
  const level = PROBABILITY_LEVELS.findIndex((l) => p >= l.min);
  return level < 0 ? PROBABILITY_LEVELS.length - 1 : level;
}

/**
 * Drift buckets in nats of |trainer − sampled|. The last is "above the threshold" and is the only one
 * that W_LOGPROB_DRIFT counts, so its bound is the threshold passed to `driftLevel`.
 */
export function driftLevels(threshold: number) {
  return [
    { max: 0.1, label: '< 0.1' },
    { max: 0.5, label: '0.1–0.5' },
    { max: threshold, label: `0.5–${threshold}` },
    { max: Number.POSITIVE_INFINITY, label: `> ${threshold} nat` },
  ] as const;
}

/** Index of the "above threshold" drift level. */
export const DRIFT_OVER = 3;

/** |trainer − sampled| in nats, or null when either side is missing. */
export function drift(trainer: number | null | undefined, sampled: number | null | undefined): number | null {
  if (trainer === null || trainer === undefined || sampled === null || sampled === undefined) return null;
  return Math.abs(trainer - sampled);
}

/**
 * Drift level 0..3 of a difference; 3 (DRIFT_OVER) exactly when it is more than the threshold, as
 * W_LOGPROB_DRIFT counts it. Null when there is nothing to compare.
 */
export function driftLevel(difference: number | null, threshold: number): number | null {
  if (difference === null || Number.isNaN(difference)) return null;
  if (difference > threshold) return DRIFT_OVER;
  if (difference >= 0.5) return 2;
  if (difference >= 0.1) return 1;
  return 0;
}
