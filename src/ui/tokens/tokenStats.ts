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
  const { roles } = track;
  const byRole = [0, 0, 0, 0, 0];
  let trainedLogprobSum = 0;
  let trainedWithLogprob = 0;
  for (let i = 0; i < roles.length; i++) {
    const role = roles[i] ?? TokenRole.Context;
    byRole[role] = (byRole[role] ?? 0) + 1;
    if (role === TokenRole.Trained) {
      const lp = track.sampled(i);
      if (lp !== null) {
        trainedLogprobSum += lp;
        trainedWithLogprob++;
      }
    }
  }
  const count = (role: TokenRole) => byRole[role] ?? 0;
  return {
    total: roles.length,
    trained: count(TokenRole.Trained),
    masked: count(TokenRole.Masked),
    context: count(TokenRole.Context),
    after: count(TokenRole.After),
    wronglyTrained: count(TokenRole.WronglyTrained),
    trainedLogprobSum,
    trainedWithLogprob,
  };
}

/** First position with a role, or null. */
export function firstWithRole(track: Pick<TokenTrack, 'roles'>, role: TokenRole): number | null {
  const i = track.roles.indexOf(role);
  return i < 0 ? null : i;
}

/** Position of the largest |trainer − sampled| (optionally within one segment's generation), or null. */
export function largestDrift(track: Pick<TokenTrack, 'ids' | 'sampled' | 'trainer' | 'segmentOf'>, segment?: number): number | null {
  const { trainer } = track;
  if (!trainer) return null;
  let best: number | null = null;
  let worst = -1;
  for (let i = 0; i < track.ids.length; i++) {
    const t = trainer[i];
    if (t === null || t === undefined) continue;
    if (segment !== undefined && track.segmentOf(i) !== segment) continue;
    const lp = track.sampled(i);
    if (lp === null) continue;
    const d = Math.abs(t - lp);
    if (d > worst) {
      worst = d;
      best = i;
    }
  }
  return best;
}
