import { mulberry32 } from '../../analysis';

/** A seeded uniform generator in [0, 1) (mulberry32, src/analysis/random.ts). */
export type Rng = () => number;

export { mulberry32 };

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
