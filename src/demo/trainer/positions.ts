import { predictedFrom, startsWithPair, trainingRoles } from '../../analysis';
import type { Rollout, Training } from '../../format';

/** One trained token: where it sits, where its prediction comes from, and what the sampler gave it. */
interface TrainedToken {
  /** Training position of the token (the target). */
  position: number;
  /** Position whose logits predict it: position - 1 (the one-position shift). */
  from: number;
  /** Index of the token inside its generation. */
  index: number;
  /** The behaviour policy's log-probability of it (the segment's old_logprobs). */
  old: number;
}

/** One generation as the trainer scores it: its context, its tokens, and those of them under the loss. */
export interface TrainedCall {
  segment: number;
  /** sequence_ids[0 .. start): everything up to and including the position that predicts the first token. */
  context: number[];
  /** The whole generation (a token with loss_mask 0 still conditions the ones after it). */
  tokens: number[];
  trained: TrainedToken[];
}

/**
 * The trainer's reading of a training record: exactly the positions with loss_mask 1, each mapped to
 * the segment token it is (§10's position len(input_ids) + j). The logits at position t predict the
 * token at t + 1, so the token at `position` is scored from `from` = position - 1, under the context
 * sequence_ids[0 .. from]; a 1 at position 0 (predicted by nothing) or at a prompt, observation or
 * padding position is refused, as is a sequence that does not begin with the segment's own context.
 */
export function trainedCalls(record: Rollout, training: Training): TrainedCall[] {
  const seq = training.sequence_ids;
  const roles = trainingRoles({ ...record, training });
  const calls = new Map<number, TrainedCall>();
  training.loss_mask.forEach((m, position) => {
    if (m !== 1) return;
    const from = predictedFrom(position);
    if (from === null) throw new Error(`${record.rollout_id}: loss_mask is 1 at position 0, which nothing predicts`);
    const role = roles[position];
    if (role?.kind !== 'generated' || !role.trainable) {
      throw new Error(`${record.rollout_id}: loss_mask is 1 at position ${position}, which the model did not generate`);
    }
    const seg = record.segments[role.segment];
    const old = seg?.old_logprobs[role.index];
    if (!seg || old === undefined) throw new Error(`${record.rollout_id}: no behaviour log-probability at position ${position}`);
    let call = calls.get(role.segment);
    if (!call) {
      if (!startsWithPair(seq, seg.input_ids, seg.generated_ids)) {
        throw new Error(`${record.rollout_id}: segment ${role.segment} is not where training.sequence_ids puts it`);
      }
      const start = seg.input_ids.length;
      call = {
        segment: role.segment,
        context: seq.slice(0, start),
        tokens: seq.slice(start, start + seg.generated_ids.length),
        trained: [],
      };
      calls.set(role.segment, call);
    }
    call.trained.push({ position, from, index: role.index, old });
  });
  return [...calls.values()];
}
