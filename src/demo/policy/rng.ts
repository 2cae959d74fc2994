/** A seeded uniform generator in [0, 1): mulberry32, small and good enough for sampling a policy. */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A 31-bit seed from a base seed and a label, so each rollout has its own stream: FNV-1a over
 * "base:label", then murmur3's finaliser so that near labels give unrelated seeds.
 */
export function deriveSeed(base: number, label: string): number {
  let h = 0x811c9dc5;
  for (const ch of `${base}:${label}`) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) & 0x7fffffff;
}
