import type { Training } from '../../format';
import type { Tokenizer } from '../chat/tokenizer';
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

/**
 * A realistic mistake: a trainer that re-tokenizes the transcript from its text, one turn at a time (as a
 * chat template renders messages and tokenizes them), instead of replaying the sampled ids. The text is
 * the same; wherever the sampler produced a non-canonical tokenization the ids are not, every later
 * position shifts, and the trainer scores tokens the model never sampled (E_TRAINING_CONTEXT).
 */
export function packRetokenized(transcript: Transcript, tok: Tokenizer, score: Scorer): Training {
  const seq: number[] = [];
  const loss_mask: (0 | 1)[] = [];
  const logprobs: (number | null)[] = [];
  const put = (ids: readonly number[], generated: boolean) => {
    const lps = generated ? score(seq, ids) : null;
    if (generated && !lps) throw new Error(`the trainer's policy gives probability 0 to the re-tokenized generation at ${seq.length}`);
    ids.forEach((id, j) => {
      seq.push(id);
      loss_mask.push(generated ? 1 : 0);
      logprobs.push(lps?.[j] ?? null);
    });
  };
  let at = 0;
  for (const { start, length } of transcript.generations) {
    if (start > at) put(tok.encode(tok.decode(transcript.ids.slice(at, start))), false);
    put(tok.encode(tok.decode(transcript.ids.slice(start, start + length))), true);
    at = start + length;
  }
  if (at < transcript.ids.length) put(tok.encode(tok.decode(transcript.ids.slice(at))), false);
  return { sequence_ids: seq, loss_mask, logprobs };
}
