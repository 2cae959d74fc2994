export function syntheticRollout(
  rand: () => number,
  i: number,
  shape?: { prompt?: number; segments?: number; observation?: [number, number] },
): unknown;
export function writeLargeJsonl(
  out: string,
  sizeMb: number | string,
  seed?: number | string,
  options?: { shape?: { prompt?: number; segments?: number; observation?: [number, number] }; last?: (rand: () => number) => unknown },
): Promise<{ rollouts: number; bytes: number }>;
