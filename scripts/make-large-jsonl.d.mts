export function syntheticRollout(
  rand: () => number,
  i: number,
  shape?: { prompt?: number; segments?: number; observation?: [number, number] },
): unknown;
/** One rollout of `tokens` tokens (r-big): three generations over a growing context, and its training sequence. */
export function longRollout(rand: () => number, tokens: number): unknown;
export function writeLargeJsonl(
  out: string,
  sizeMb: number | string,
  seed?: number | string,
  options?: { shape?: { prompt?: number; segments?: number; observation?: [number, number] }; last?: (rand: () => number) => unknown },
): Promise<{ rollouts: number; bytes: number }>;
