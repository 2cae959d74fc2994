/** PPO's clip range: the ratio may move the objective only inside [1 - eps, 1 + eps]. */
export const CLIP_EPSILON = 0.2;

/**
 * Dr. GRPO divides each rollout's token sum by a constant instead of its own length (so long and short
 * answers weigh the same per token); the demo uses one generation's token budget, max_new_tokens.
 */
export const DR_GRPO_TOKEN_NORM = 256;

export interface TokenTerm {
  /** The value min(r A, clip(r, 1 - eps, 1 + eps) A). */
  value: number;
  /** d value / d logp: r A where the unclipped side is the minimum, else 0 (the clipped side is flat). */
  dLogp: number;
  ratio: number;
  /** The clipped side was the minimum and the ratio outside the range: this token pushes nothing. */
  clipped: boolean;
}

/**
 * One trained token's clipped surrogate: r = exp(logp - old) against the behaviour log-probability,
 * advantage A. Maximised by the trainer (the loss is its negative).
 */
export function clippedTerm(logp: number, old: number, advantage: number, eps = CLIP_EPSILON): TokenTerm {
  const ratio = Math.exp(logp - old);
  const unclipped = ratio * advantage;
  const clippedRatio = Math.min(Math.max(ratio, 1 - eps), 1 + eps);
  const clippedValue = clippedRatio * advantage;
  if (unclipped <= clippedValue) return { value: unclipped, dLogp: unclipped, ratio, clipped: false };
  return { value: clippedValue, dLogp: 0, ratio, clipped: true };
}

/**
 * The weight of each of a rollout's token terms in the objective J = mean over rollouts of
 * (sum of its token terms x weight): 1 / its trained tokens for GRPO (sequence mean of token means),
 * 1 / DR_GRPO_TOKEN_NORM for Dr. GRPO.
 */
export function tokenWeight(trainedTokens: number, drGrpo: boolean): number {
  if (drGrpo) return 1 / DR_GRPO_TOKEN_NORM;
  return trainedTokens > 0 ? 1 / trainedTokens : 0;
}
