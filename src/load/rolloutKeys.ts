import type { RolloutSummary } from '../analysis';

type Identity = Pick<RolloutSummary, 'rollout_id' | 'attempt_id' | 'file' | 'line'>;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function baseKey(r: Identity): string {
  return r.attempt_id === null ? r.rollout_id : `${r.rollout_id}#${r.attempt_id}`;
}

/**
 * The `rollout=` value for each row: `rollout_id`, plus `#attempt_id` when it has one. A duplicate
 * (E_DUPLICATE_ROLLOUT) would share that key, so each duplicate also gets `@file:line` to stay selectable.
 */
export function rolloutKeys(rollouts: readonly Identity[]): string[] {
  // Each key made once: a run's step of 1,000 rows makes them in the click that opens one of its rollouts.
  const bases = rollouts.map(baseKey);
  const count = new Map<string, number>();
  for (const key of bases) count.set(key, (count.get(key) ?? 0) + 1);
  if (count.size === bases.length) return bases;
  return bases.map((key, i) => {
    const r = rollouts[i];
    return r && (count.get(key) ?? 0) > 1 ? `${key}@${r.file}:${r.line}` : key;
  });
}

/**
 * The row a `rollout=` value points at, or -1. An exact key wins; a link made before a duplicate
 * appeared, or one naming just the rollout_id, falls back to the first row it fits.
 */
export function findRollout(rollouts: readonly Identity[], keys: readonly string[], key: string | null): number {
  if (key === null) return -1;
  const exact = keys.indexOf(key);
  if (exact !== -1) return exact;
  // A URL cannot carry a lone surrogate (valid in JSON ids): it arrives as U+FFFD, so compare so too.
  const wellFormed = keys.findIndex((k) => k.replace(LONE_SURROGATE, '\uFFFD') === key);
  if (wellFormed !== -1) return wellFormed;
  const byBase = rollouts.findIndex((r) => baseKey(r) === key);
  return byBase !== -1 ? byBase : rollouts.findIndex((r) => r.rollout_id === key);
}
