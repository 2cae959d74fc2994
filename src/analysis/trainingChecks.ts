import { DEFAULT_DRIFT_THRESHOLD, plural, type Rollout } from '../format';
import { describePositions, finding } from './finding';
import { firstMismatch } from './ids';
import { trainingPositions } from './masks';
import { classifyRewrite, describeRewrite, type TokenText } from './rewrite';
import { recordTokenText } from './tokens';
import type { Finding } from './types';

/** Its default is a read option's (format/readOptions.ts), said once for the CLI and the page. */
export { DEFAULT_DRIFT_THRESHOLD };

/**
 * Checks the trainer's packed sequence against what the model saw and generated:
 * E_TRAINING_CONTEXT, E_TRAINING_MASK and W_LOGPROB_DRIFT.
 */
export function trainingFindings(
  record: Rollout,
  driftThreshold = DEFAULT_DRIFT_THRESHOLD,
  tokenText?: (record: Rollout) => TokenText | null,
): Finding[] {
  const training = record.training;
  if (!training) return [];
  let text: TokenText | null | undefined;
  // How the packed sequence differs from what the model saw and generated, when the ids can be decoded:
  // the same classes as a rewritten context (a trainer that re-tokenized the text is "retokenized").
  const why = (i: number): string => {
    const seg = record.segments[i];
    if (!seg) return '';
    text ??= tokenText?.(record) ?? recordTokenText(record, null);
    const c = text && classifyRewrite([...seg.input_ids, ...seg.generated_ids], training.sequence_ids, text);
    return c ? `: ${describeRewrite(c, { before: 'what the model saw', after: 'training.sequence_ids' })}` : '';
  };
  const out: Finding[] = [];
  const seq = training.sequence_ids;
  const aligned: boolean[] = record.segments.map((seg, i) => {
    const at = firstMismatch(seq, seg.input_ids, seg.generated_ids);
    if (at === null) return true;
    const part = at < seg.input_ids.length ? `its input_ids at position ${at}` : `its generated_ids at position ${at}`;
    out.push(
      finding(
        'E_TRAINING_CONTEXT',
        `segment ${i}: training.sequence_ids departs from ${part}; the trainer would score this generation under a context the model never saw${why(i)}`,
        { segment: i },
      ),
    );
    return false;
  });

  // A mask that does not line up with its sequence cannot say which tokens are trained; §2 requires
  // the same length, and there is no separate code, so it is reported as a mask error.
  if (training.loss_mask.length !== seq.length) {
    out.push(finding('E_TRAINING_MASK', `training.loss_mask has ${training.loss_mask.length} entries for ${seq.length} sequence_ids`));
  }
  const positions = trainingPositions(record);
  const bad: number[] = [];
  training.loss_mask.forEach((m, pos) => {
    if (m === 1 && !positions.trainable(pos)) bad.push(pos);
  });
  if (bad.length > 0) {
    const first = bad[0] ?? 0;
    const what =
      first >= seq.length || (positions.segmentAt(first) === -1 && first >= positions.end)
        ? 'after the last generation (padding)'
        : positions.segmentAt(first) === -1
          ? 'prompt or tool observation'
          : 'a generated token whose own loss_mask is 0';
    out.push(
      finding(
        'E_TRAINING_MASK',
        `training.loss_mask is 1 at ${describePositions(bad)} that the model did not generate under loss; the first is ${what}`,
      ),
    );
  }

  const lps = training.logprobs;
  if (lps && lps.length !== seq.length) {
    out.push(finding('E_LOGPROB_LENGTH', `training.logprobs has ${lps.length} entries for ${seq.length} sequence_ids`));
  } else if (lps) {
    record.segments.forEach((seg, i) => {
      // A misaligned segment is already an error; comparing its logprobs would compare other tokens.
      if (!aligned[i]) return;
      let worst = 0;
      let count = 0;
      // Only the generated tokens have a sampled log-probability: extra old_logprobs (E_LOGPROB_LENGTH)
      // would be compared with whatever follows the generation.
      const generated = Math.min(seg.old_logprobs.length, seg.generated_ids.length);
      for (let j = 0; j < generated; j++) {
        const old = seg.old_logprobs[j] as number;
        const p = seg.input_ids.length + j;
        const trained = lps[p];
        // As in §10: a trainer value outside the loss (mask 0) is computed by the forward pass but never used.
        if (trained === null || trained === undefined || training.loss_mask[p] !== 1) continue;
        const d = Math.abs(trained - old);
        if (d > driftThreshold) count++;
        worst = Math.max(worst, d);
      }
      if (count > 0) {
        out.push(
          finding(
            'W_LOGPROB_DRIFT',
            `segment ${i}: ${plural(count, 'token')} where training.logprobs and old_logprobs differ by more than ${driftThreshold} nat (max ${worst.toFixed(3)})`,
            { segment: i },
          ),
        );
      }
    });
  }
  return out;
}
