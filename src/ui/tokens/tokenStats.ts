import { TokenRole, type TokenTrack } from '../../analysis';

export interface TokenStats {
  total: number;
  trained: number;
  masked: number;
  context: number;
  after: number;
  wronglyTrained: number;
  /** Sum and count of the sampled log-probs of trained tokens that have one. */
  trainedLogprobSum: number;
  trainedWithLogprob: number;
}

/** Counts by role and the sampled log-prob of the trained tokens: the view's summary line. */
export function tokenStats(track: Pick<TokenTrack, 'roles' | 'sampled'>): TokenStats {
  const s: TokenStats = {
    total: track.roles.length,
    trained: 0,
    masked: 0,
    context: 0,
    after: 0,
    wronglyTrained: 0,
    trainedLogprobSum: 0,
    trainedWithLogprob: 0,
  };
  track.roles.forEach((role, i) => {
    if (role === TokenRole.Trained) {
      s.trained++;
      const lp = track.sampled[i];
      if (lp !== null && lp !== undefined) {
        s.trainedLogprobSum += lp;
        s.trainedWithLogprob++;
      }
    } else if (role === TokenRole.Masked) s.masked++;
    else if (role === TokenRole.After) s.after++;
    else if (role === TokenRole.WronglyTrained) s.wronglyTrained++;
    else s.context++;
  });
  return s;
}

/** First position with a role, or null. */
export function firstWithRole(track: Pick<TokenTrack, 'roles'>, role: TokenRole): number | null {
  const i = track.roles.indexOf(role);
  return i < 0 ? null : i;
}

/** Position of the largest |trainer − sampled| (optionally within one segment's generation), or null. */
export function largestDrift(track: Pick<TokenTrack, 'sampled' | 'trainer' | 'segmentOf'>, segment?: number): number | null {
  if (!track.trainer) return null;
  let best: number | null = null;
  let worst = -1;
  track.sampled.forEach((lp, i) => {
    const t = track.trainer?.[i];
    if (lp === null || t === null || t === undefined) return;
    if (segment !== undefined && track.segmentOf[i] !== segment) return;
    const d = Math.abs(t - lp);
    if (d > worst) {
      worst = d;
      best = i;
    }
  });
  return best;
}
