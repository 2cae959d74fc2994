import { compact, type Json, locator, num, rewardFor, str, unmapped } from './read';
import { type Convert, ConvertError } from './types';

/*
 * veRL rollout dumps (`trainer.rollout_data_dir`): RayPPOTrainer._dump_generations writes
 * `<dir>/<global_steps>.jsonl`, one line per sample: `input` and `output` (the prompt and the response,
 * decoded with skip_special_tokens), `score` (the sequence reward), `step` (the trainer's global step) and
 * newer versions `gts` (ground truth), plus every reward_extra_infos key (acc, pred, …). No token ids,
 * no sample id, no group id and no stop reason are written.
 */

export const convertVerlRollouts: Convert = (value, ctx) => {
  const output = str(value.output);
  if (output === undefined) throw new ConvertError('output: expected the response text');
  const score = value.score === null || value.score === undefined ? null : num(value.score);
  if (score === undefined) throw new ConvertError('score: expected a number');
  const step = value.step;
  if (step !== undefined && !(typeof step === 'number' && Number.isInteger(step) && step >= 0)) {
    throw new ConvertError('step: expected the training step (an integer >= 0)');
  }
  const extra: Json = unmapped(value, ['input', 'output', 'score', 'step']) ?? {};
  // The dump records no stop reason (a response cut at response_length reads the same): not guessed.
  const termination = 'unknown';
  return [
    compact({
      source_format: 'verl-rollouts',
      // No uid is dumped, so each line is its own task: group statistics are not invented across lines.
      task_id: locator(ctx),
      rollout_id: locator(ctx),
      training_step: step,
      task: typeof value.input === 'string' ? { prompt: value.input } : undefined,
      segments: [{ input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: null, text: output }],
      termination,
      reward: rewardFor(termination, score, extra),
      extra: Object.keys(extra).length > 0 ? extra : undefined,
    }),
  ];
};
