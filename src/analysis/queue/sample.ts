import { STRATA, type Stratum } from '../../format';
import { mulberry32 } from '../random';

/** What choosing a review queue needs of one rollout. */
export interface QueueCandidate {
  /** The `rollout=` key, as the app forms it over the same files (load/rolloutKeys). */
  rollout: string;
  file: string;
  /** 1-based line in `file`. */
  line: number;
  rollout_id: string;
  attempt_id: string | null;
  task_id: string;
  /** The grader's `grading.verdict`; null when the record has none. */
  verdict: string | null;
  /** Each regrade's new verdict for this rollout; a regrade that gave none (an error, no verdict) is left out. */
  regrades: readonly string[];
  /** Ids of the scanner rules that hit it, distinct and sorted; empty without hits or without rules. */
  scanners: readonly string[];
}

/** Why an item is in the queue: a verdict disagreement, the scanner rules that hit it, or its grader stratum. */
type QueueReason = 'disagreement' | `scanner:${string}` | `stratum:${Stratum}`;

export interface SampledItem {
  candidate: QueueCandidate;
  reason: QueueReason;
}

export function stratumOf(verdict: string | null): Stratum {
  if (verdict === null) return 'none';
  return verdict === 'pass' || verdict === 'fail' || verdict === 'error' ? verdict : 'other';
}

/** True when the grader and the regrades (or two regrades) gave different verdicts for the rollout. */
export function disagrees(c: Pick<QueueCandidate, 'verdict' | 'regrades'>): boolean {
  const verdicts = new Set(c.regrades);
  if (verdicts.size === 0) return false;
  if (c.verdict !== null) verdicts.add(c.verdict);
  return verdicts.size > 1;
}

/**
 * `n` of `items` chosen uniformly at random (a partial Fisher-Yates shuffle), returned in their given
 * order: the queue lists what it chose in file order, not in the order it was drawn.
 */
function pick<T>(items: readonly T[], n: number, random: () => number): T[] {
  if (n >= items.length) return [...items];
  const order = items.map((_, i) => i);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (order.length - i));
    const a = order[i] ?? i;
    order[i] = order[j] ?? j;
    order[j] = a;
  }
  return order
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => items[i] as T);
}

/**
 * How many of `budget` items each stratum gets: in proportion to its size (largest remainders), at least
 * one for every stratum present, never more than it has. With fewer places than strata present, the
 * smallest strata get one each: a proportional sample would show only the common verdicts.
 */
export function allocate(sizes: ReadonlyMap<Stratum, number>, budget: number): Map<Stratum, number> {
  const present = STRATA.filter((s) => (sizes.get(s) ?? 0) > 0);
  const size = (s: Stratum) => sizes.get(s) ?? 0;
  const total = present.reduce((n, s) => n + size(s), 0);
  const out = new Map<Stratum, number>();
  if (budget <= 0 || total === 0) return out;
  if (budget >= total) {
    for (const s of present) out.set(s, size(s));
    return out;
  }
  if (budget < present.length) {
    // Stable sort: ties keep STRATA's order.
    for (const s of [...present].sort((a, b) => size(a) - size(b)).slice(0, budget)) out.set(s, 1);
    return out;
  }
  const quota = (s: Stratum) => (budget * size(s)) / total;
  for (const s of present) out.set(s, Math.min(size(s), Math.max(1, Math.floor(quota(s)))));
  const sum = () => [...out.values()].reduce((a, b) => a + b, 0);
  const best = (score: (s: Stratum) => number, ok: (s: Stratum) => boolean): Stratum | undefined => {
    let found: Stratum | undefined;
    for (const s of present) if (ok(s) && (found === undefined || score(s) > score(found))) found = s;
    return found;
  };
  const at = (s: Stratum) => out.get(s) ?? 0;
  // The minimum of one can overshoot: take back from the stratum furthest above its quota.
  for (let over = sum() - budget; over > 0; over--) {
    const s = best(
      (x) => at(x) - quota(x),
      (x) => at(x) > 1,
    );
    if (s === undefined) break;
    out.set(s, at(s) - 1);
  }
  for (let under = budget - sum(); under > 0; under--) {
    const s = best(
      (x) => quota(x) - at(x),
      (x) => at(x) < size(x),
    );
    if (s === undefined) break;
    out.set(s, at(s) + 1);
  }
  return out;
}

export interface SampleOptions {
  /** How many items at most. */
  size: number;
  /** mulberry32's seed, 0 to 2^32 - 1: the same seed over the same rollouts chooses the same queue. */
  seed: number;
}

/**
 * The rollouts to review, in three tiers, each in file order: every rollout whose grader and regrades
 * disagree, then every scanner hit, then a sample of the rest stratified by grader verdict. A tier larger
 * than the places left is sampled (seeded) to fit, and the tiers after it get none.
 */
export function sampleQueue(candidates: readonly QueueCandidate[], { size, seed }: SampleOptions): SampledItem[] {
  const random = mulberry32(seed);
  const out: SampledItem[] = [];
  const room = () => Math.max(0, size - out.length);
  const disagreeing = candidates.filter(disagrees);
  for (const c of pick(disagreeing, room(), random)) out.push({ candidate: c, reason: 'disagreement' });
  const flagged = candidates.filter((c) => c.scanners.length > 0 && !disagrees(c));
  for (const c of pick(flagged, room(), random)) out.push({ candidate: c, reason: `scanner:${c.scanners.join(',')}` });
  const rest = candidates.filter((c) => c.scanners.length === 0 && !disagrees(c));
  const byStratum = new Map<Stratum, QueueCandidate[]>();
  for (const c of rest) {
    const s = stratumOf(c.verdict);
    const list = byStratum.get(s);
    if (list) list.push(c);
    else byStratum.set(s, [c]);
  }
  const shares = allocate(new Map([...byStratum].map(([s, list]) => [s, list.length])), room());
  const chosen = new Set<QueueCandidate>();
  for (const s of STRATA) for (const c of pick(byStratum.get(s) ?? [], shares.get(s) ?? 0, random)) chosen.add(c);
  for (const c of rest) if (chosen.has(c)) out.push({ candidate: c, reason: `stratum:${stratumOf(c.verdict)}` });
  return out;
}
