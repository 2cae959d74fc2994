import type { ScanRule } from '../format';
import { type Rollout, TERMINATIONS } from '../format';
import { finding } from './finding';
import type { TokenText } from './rewrite';
import { segmentFindings } from './segmentChecks';
import { stepFindings } from './stepChecks';
import { isKnownTermination, terminationInfo } from './termination';
import { trainingFindings } from './trainingChecks';
import type { Finding } from './types';

export interface CheckOptions {
  /** Scanner rules to run over each rollout (`lint --rules`, docs/scanners.md): their hits are W_SCAN / E_SCAN. */
  rules?: readonly ScanRule[];
  /** W_LOGPROB_DRIFT threshold in nats. */
  driftThreshold?: number;
  /**
   * Count rollouts whose termination is `unknown` (no status recorded: evaluation data, training dumps)
   * as finished for the policy signal and group statistics. Only ever an explicit choice of the person
   * (`lint --unknown-as-finished`, the app's toggle held in the URL); their W_UNKNOWN_TERMINATION stays.
   */
  unknownAsFinished?: boolean;
  /** §10's truncated-importance-sampling cap C for `mismatch.ratio_clip_frac` (`lint --is-cap`); default 2. */
  isCap?: number;
  /**
   * Token text for W_CONTEXT_REWRITTEN's reason beyond the record's own token strings (the CLI passes the
   * Qwen3 tokenizer). A function, so never set where the options cross to a worker.
   */
  tokenText?: (record: Rollout) => TokenText | null;
}

function recordFindings(record: Rollout): Finding[] {
  const out: Finding[] = [];
  const t = record.termination;
  const reward = record.reward ?? null;
  if (!isKnownTermination(t)) {
    out.push(finding('W_UNKNOWN_TERMINATION', `termination "${t}" is not one of ${TERMINATIONS.join(', ')}; left out of the signal`));
  } else if (terminationInfo(t).inSignal) {
    if (reward === null)
      out.push(
        finding(
          'E_REWARD_MISSING',
          `termination "${t}" is in the policy signal but reward is ${record.reward === null ? 'null' : 'missing'}`,
        ),
      );
  } else if (reward !== null) {
    out.push(
      finding('E_EXCLUDED_HAS_REWARD', `termination "${t}" is excluded from the signal but carries reward ${reward}; it must be null`),
    );
  }
  const missing: string[] = [];
  if (!record.tokenizer?.version) missing.push('tokenizer.version');
  if (!record.chat_template?.version) missing.push('chat_template.version');
  if (!record.grader?.version && !record.grading?.grader?.version) missing.push('grader.version');
  if (!record.sampling) missing.push('sampling');
  if (missing.length > 0) out.push(finding('W_MISSING_METADATA', `missing ${missing.join(', ')}`));
  const inferred = readByShape(record);
  if (inferred) out.push(finding('W_READ_BY_SHAPE', `${inferred}; \`lint --print-map\` writes it as a mapping to check and keep`));
  return out;
}

/**
 * What the structural reader inferred (docs/formats.md, "Read by shape"), in words: "conversation
 * steps (steps shape), reward from score, task_id from task_id"; null for a record an adapter read.
 */
function readByShape(record: Rollout): string | null {
  const extra = record.extra as Record<string, unknown> | undefined;
  const inferred = extra?.read_by_shape;
  if (record.source_format !== 'structural' || typeof inferred !== 'object' || inferred === null) return null;
  const { conversation, shape, ...facts } = inferred as Record<string, unknown>;
  const parts = [`conversation ${String(conversation)} (${String(shape)} shape)`];
  for (const [fact, path] of Object.entries(facts)) parts.push(`${fact} from ${String(path)}`);
  return parts.join(', ');
}

/** Every per-rollout finding of §7 (the cross-rollout E_DUPLICATE_ROLLOUT and group codes come later). */
export function rolloutFindings(record: Rollout, options: CheckOptions = {}): Finding[] {
  return [
    ...recordFindings(record),
    ...segmentFindings(record, options.tokenText),
    ...stepFindings(record),
    ...trainingFindings(record, options.driftThreshold, options.tokenText),
  ];
}
