import { DEFAULT_IS_CAP, type Rollout } from '../format';

/** §10's default cap C is a read option's (`--is-cap`, format/readOptions.ts). */
export { DEFAULT_IS_CAP };

/** Training-inference mismatch of one rollout (shared/trajectory-format.md §10); all null but `n` when n = 0. */
export interface Mismatch {
  n: number;
  mean_abs: number | null;
  max_abs: number | null;
  ratio_mean: number | null;
  /** Fraction of compared positions with r > C. */
  ratio_clip_frac: number | null;
  /** k3 estimate of KL(behaviour || trainer): mean of r - 1 - d. */
  kl_k3: number | null;
}

/** One compared position of §10: where it is, which generated token it is, and its log-ratio. */
export interface MismatchPosition {
  /** Position in `training.sequence_ids`. */
  pos: number;
  segment: number;
  /** Index of the token in the segment's `generated_ids`. */
  index: number;
  id: number;
  behaviour: number;
  trainer: number;
  /** trainer - behaviour. */
  d: number;
}

/**
 * The positions §10 compares: segment k's generated token j sits at training position
 * len(input_ids_k) + j, and is compared only where the loss mask is 1, the trainer's log-probability is a
 * number, the packed token is that very token and the behaviour log-probability exists. In segment order.
 */
export function mismatchPositions(record: Rollout): MismatchPosition[] {
  const t = record.training;
  if (!t?.logprobs) return [];
  const out: MismatchPosition[] = [];
  record.segments.forEach((seg, segment) => {
    seg.generated_ids.forEach((id, index) => {
      const pos = seg.input_ids.length + index;
      const trainer = t.logprobs?.[pos];
      const behaviour = seg.old_logprobs[index];
      if (t.loss_mask[pos] !== 1 || typeof trainer !== 'number' || t.sequence_ids[pos] !== id || typeof behaviour !== 'number') return;
      out.push({ pos, segment, index, id, behaviour, trainer, d: trainer - behaviour });
    });
  });
  return out;
}

/** The per-position log-ratios d = trainer - behaviour of §10 (see `mismatchPositions`). */
export function mismatchDeltas(record: Rollout): number[] {
  return mismatchPositions(record).map((p) => p.d);
}

/** §10's statistics over the given log-ratios. */
export function mismatchStats(deltas: readonly number[], cap = DEFAULT_IS_CAP): Mismatch {
  const n = deltas.length;
  if (n === 0) return { n, mean_abs: null, max_abs: null, ratio_mean: null, ratio_clip_frac: null, kl_k3: null };
  let abs = 0;
  let max = 0;
  let ratio = 0;
  let clipped = 0;
  let k3 = 0;
  for (const d of deltas) {
    const r = Math.exp(d);
    abs += Math.abs(d);
    max = Math.max(max, Math.abs(d));
    ratio += r;
    if (r > cap) clipped++;
    k3 += r - 1 - d;
  }
  return { n, mean_abs: abs / n, max_abs: max, ratio_mean: ratio / n, ratio_clip_frac: clipped / n, kl_k3: k3 / n };
}

/** §10 for one rollout: null when it has no `training` record (the field is then absent from lint). */
export function rolloutMismatch(record: Rollout, cap = DEFAULT_IS_CAP): Mismatch | null {
  return record.training ? mismatchStats(mismatchDeltas(record), cap) : null;
}

/** The run's totals over rollouts with a training record: §10's statistics pooled over every compared position. */
export interface MismatchTotals {
  /** Rollouts with a training record (compared or not). */
  rollouts: number;
  /** Of those, rollouts with at least one compared position. */
  compared: number;
  stats: Mismatch;
}

/**
 * Pools per-rollout statistics exactly: each mean is weighted by its n, so the result equals
 * `mismatchStats` over all positions of all rollouts at once (what a trainer's batch metric reports).
 */
export function poolMismatch(all: readonly Mismatch[]): MismatchTotals {
  let n = 0;
  let abs = 0;
  let max = 0;
  let ratio = 0;
  let clipped = 0;
  let k3 = 0;
  let compared = 0;
  for (const m of all) {
    if (m.n === 0) continue;
    compared++;
    n += m.n;
    abs += (m.mean_abs ?? 0) * m.n;
    max = Math.max(max, m.max_abs ?? 0);
    ratio += (m.ratio_mean ?? 0) * m.n;
    clipped += (m.ratio_clip_frac ?? 0) * m.n;
    k3 += (m.kl_k3 ?? 0) * m.n;
  }
  const stats: Mismatch =
    n === 0
      ? { n, mean_abs: null, max_abs: null, ratio_mean: null, ratio_clip_frac: null, kl_k3: null }
      : { n, mean_abs: abs / n, max_abs: max, ratio_mean: ratio / n, ratio_clip_frac: clipped / n, kl_k3: k3 / n };
  return { rollouts: all.length, compared, stats };
}
