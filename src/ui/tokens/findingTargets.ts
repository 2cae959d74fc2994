import { type Finding, type FindingCode, findingsWithCodes, previousSequence, sharedPrefixes, TokenRole, tokenTrack } from '../../analysis';
import type { Rollout } from '../../format';
import type { SeqValue } from './sequence';
import { firstWithRole, largestDrift } from './tokenStats';

/** Findings about tokens, which the token view lists above the chips. */
const TOKEN_FINDING_CODES: readonly FindingCode[] = [
  'E_TRAINING_CONTEXT',
  'E_TRAINING_MASK',
  'W_LOGPROB_DRIFT',
  'W_HIT_MAX_TOKENS',
  'W_CONTEXT_REWRITTEN',
];

/** A huge rollout's are found in its packed columns, without making its million other findings. */
export function tokenFindings(findings: readonly Finding[]): Finding[] {
  return findingsWithCodes(findings, TOKEN_FINDING_CODES);
}

/** Where a finding shows in the token view: a sequence, a token in it, and whether drift shading tells it. */
export interface FindingTarget {
  seq: SeqValue;
  token: number | null;
  drift: boolean;
}

/** First position where the packed sequence departs from a segment's context + generation. */
function departure(seq: readonly number[], head: readonly number[], tail: readonly number[]): number | null {
  const total = head.length + tail.length;
  for (let i = 0; i < total; i++) {
    const want = i < head.length ? head[i] : tail[i - head.length];
    if (seq[i] !== want) return i < seq.length ? i : Math.max(0, seq.length - 1);
  }
  return null;
}

/**
 * The token that shows a finding: for E_TRAINING_CONTEXT where the training sequence departs from the
 * segment, for E_TRAINING_MASK the first wrongly trained token, for W_LOGPROB_DRIFT the segment's
 * worst drift (in drift shading), for W_HIT_MAX_TOKENS the segment's last generated token, for
 * W_CONTEXT_REWRITTEN the first position of the segment's context that departs from the previous sequence.
 * Computed on demand: it may build the training track.
 */
export function findingTarget(finding: Finding, record: Rollout): FindingTarget | null {
  const seg = finding.segment === null ? undefined : record.segments[finding.segment];
  const training = record.training;
  switch (finding.code) {
    case 'E_TRAINING_CONTEXT':
      if (!seg || !training) return null;
      return { seq: 'training', token: departure(training.sequence_ids, seg.input_ids, seg.generated_ids), drift: false };
    case 'E_TRAINING_MASK': {
      const track = tokenTrack(record, { kind: 'training' });
      return track ? { seq: 'training', token: firstWithRole(track, TokenRole.WronglyTrained), drift: false } : null;
    }
    case 'W_LOGPROB_DRIFT': {
      const track = tokenTrack(record, { kind: 'training' });
      if (!track || finding.segment === null) return null;
      return { seq: 'training', token: largestDrift(track, finding.segment), drift: true };
    }
    case 'W_HIT_MAX_TOKENS':
      if (!seg || finding.segment === null) return null;
      return { seq: finding.segment, token: seg.input_ids.length + seg.generated_ids.length - 1, drift: false };
    case 'W_CONTEXT_REWRITTEN': {
      if (!seg || finding.segment === null) return null;
      const shared = sharedPrefixes(record.segments)[finding.segment] ?? 0;
      const prevLength = previousSequence(record, finding.segment).length;
      return { seq: finding.segment, token: Math.min(shared, Math.max(0, seg.input_ids.length - 1), prevLength), drift: false };
    }
    default:
      return null;
  }
}
