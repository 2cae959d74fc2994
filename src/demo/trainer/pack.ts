import type { Training } from '../../format';
import type { Transcript } from '../harness/context';

/** Log-probabilities of `generated` after `context` under the policy being trained. */
export type Scorer = (context: readonly number[], generated: readonly number[]) => number[] | null;

/**
 * The trainer's packing: it replays the harness's full transcript (every turn, nothing dropped),
 * trains on the generated positions only, and recomputes their log-probabilities itself. This is
 * right exactly when the model saw that transcript. When sampling compacted the context, the
 * packed sequence is not what the model was conditioned on, and lint reports E_TRAINING_CONTEXT:
 * the demo keeps one such rollout on purpose.
 */
export function packTraining(transcript: Transcript, score: Scorer): Training {
  const seq = transcript.ids;
  const loss_mask: (0 | 1)[] = seq.map(() => 0);
  const logprobs: (number | null)[] = seq.map(() => null);
  for (const { start, length } of transcript.generations) {
    const lps = score(seq.slice(0, start), seq.slice(start, start + length));
    if (!lps) throw new Error(`the policy gives probability 0 to the generation at ${start}`);
    for (let j = 0; j < length; j++) {
      loss_mask[start + j] = 1;
      logprobs[start + j] = lps[j] ?? null;
    }
  }
  return { sequence_ids: [...seq], loss_mask, logprobs };
}
