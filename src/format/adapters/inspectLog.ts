import { compact, idOf, isRecord, type Json, list, locator, rec, rewardFor, str, unmapped } from './read';
import { samplingFrom } from './sampling';
import { chatTurns, type Message, normalizeMessage } from './transcript';
import { type Convert, ConvertError, type Termination } from './types';

/*
 * Inspect AI eval logs (UKGovernmentBEIS/inspect_ai, src/inspect_ai/log/_log.py): an `EvalLog` with
 * `eval` (EvalSpec: task, model, model_generate_config), `plan` (its `config` is the GenerateConfig) and
 * `samples` (EvalSample: id, epoch, messages, output, scores, error, limit, attachments, uuid). A `.json`
 * log holds it all in one document; a `.eval` log is a zip of `_journal/start.json` / `header.json` (the
 * spec) and one `samples/<id>_epoch_<n>.json` per sample, read by `inspectEvalZip.ts`.
 */

/** `EvalSampleLimitType` (log/_log.py): every one is a budget except an operator's interrupt. */
const LIMITS: Record<string, Termination> = {
  context: 'budget_exhausted',
  time: 'budget_exhausted',
  working: 'budget_exhausted',
  message: 'budget_exhausted',
  token: 'budget_exhausted',
  turn: 'budget_exhausted',
  cost: 'budget_exhausted',
  operator: 'cancelled',
};

/**
 * The termination table of docs/formats.md. `error` is "Error that halted sample" and `limit` "The limit
 * that halted the sample"; with neither, the solver plan ran to its end and the sample was scored.
 */
export function inspectTermination(sample: Json): string {
  if (sample.error !== undefined && sample.error !== null) return 'infra_failure';
  const limit = rec(sample.limit);
  if (limit) {
    const type = str(limit.type) ?? '';
    return LIMITS[type] ?? `limit:${type}`;
  }
  return 'finished';
}

/**
 * A score value as Inspect's `value_to_float()` (scorer/_metric.py) turns it into a float: numbers and
 * booleans as they are, "C" 1, "P" 0.5, "I" and "N" 0, yes/true 1, no/false 0, numeric strings parsed.
 * Where Inspect gives up (a list, a dict, any other string) it logs a warning and returns 0: that 0 is not
 * a score, so here it is null and the value stays under `extra.scores`.
 */
export function inspectValueToFloat(value: unknown): number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  if (value === 'C') return 1;
  if (value === 'P') return 0.5;
  if (value === 'I' || value === 'N') return 0;
  const lower = value.toLowerCase();
  if (lower === 'yes' || lower === 'true') return 1;
  if (lower === 'no' || lower === 'false') return 0;
  const n = lower.trim() === '' ? Number.NaN : Number(lower);
  return Number.isFinite(n) ? n : null;
}

/** The eval-wide facts every sample of a log shares: from `eval` and `plan`. */
interface InspectSpec {
  task?: string;
  model?: string;
  sampling?: Json;
  extra: Json;
}

function inspectSpec(log: Json | undefined): InspectSpec {
  const spec = rec(log?.eval);
  const plan = rec(log?.plan);
  // The plan's config is the GenerateConfig the run used; the model's own generate config is its default.
  const config = { ...rec(spec?.model_generate_config), ...rec(plan?.config) };
  return {
    task: str(spec?.task),
    model: str(spec?.model),
    sampling: samplingFrom(config),
    extra: compact({
      eval_id: spec?.eval_id,
      run_id: spec?.run_id,
      task_id: spec?.task_id,
      task_version: spec?.task_version,
      generate_config: Object.keys(config).length > 0 ? config : undefined,
      inspect_version: rec(spec?.packages)?.inspect_ai,
    }),
  };
}

const ATTACHMENT = 'attachment://';

/** Replaces `attachment://<hash>` strings by the sample's attachment text (Inspect dedups long content so). */
function resolveAttachments(value: unknown, attachments: Json | undefined): unknown {
  if (!attachments) return value;
  if (typeof value === 'string') {
    if (!value.startsWith(ATTACHMENT)) return value;
    const text = attachments[value.slice(ATTACHMENT.length)];
    return typeof text === 'string' ? text : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments));
  if (isRecord(value)) {
    const out: Json = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveAttachments(v, attachments);
    return out;
  }
  return value;
}

/** An Inspect ChatMessage: tool calls are `{id, function, arguments: {...}}`, reasoning is a content part. */
function inspectMessage(raw: unknown, path: string): Message {
  if (!isRecord(raw)) throw new ConvertError(`${path}: expected a chat message object`);
  const { tool_calls, ...rest } = raw;
  const calls = list(tool_calls)?.map((c) => {
    const call = rec(c);
    if (!call) return c;
    const { function: name, ...others } = call;
    return typeof name === 'string' ? { ...others, name } : call;
  });
  const message = normalizeMessage({ ...rest, tool_calls: calls }, path);
  if (!message) throw new ConvertError(`${path}: expected a chat message with a string "role"`);
  if (message.reasoning === undefined && Array.isArray(message.content_parts)) {
    const thoughts = message.content_parts.flatMap((p) =>
      isRecord(p) && p.type === 'reasoning' && typeof p.reasoning === 'string' ? [p.reasoning] : [],
    );
    if (thoughts.length > 0) message.reasoning = thoughts.join('\n');
  }
  return message;
}

const MAPPED = [
  'id',
  'epoch',
  'messages',
  'scores',
  'error',
  'limit',
  'attachments',
  'uuid',
  'events',
  'started_at',
  'completed_at',
  'input',
];

/**
 * One EvalSample → one rollout. `where` names the sample when it has no `uuid` (Inspect < 0.3.70): the
 * zip entry of a `.eval`, or `samples[i]` of a `.json` log. Its `events` (the full event log, which
 * repeats the messages and every model call) are not carried; the messages are the transcript.
 */
function convertInspectSample(
  sample: Json,
  spec: InspectSpec,
  where: string,
  fallbackId: string,
  format: 'inspect-eval' | 'inspect-log',
): Json {
  const id = idOf(sample.id);
  if (id === undefined) throw new ConvertError(`${where}: id: expected an integer or string sample id`);
  const attachments = rec(sample.attachments);
  const raw = list(sample.messages);
  if (!raw) throw new ConvertError(`${where}: messages: expected an array of chat messages`);
  const messages = raw.map((m, i) => inspectMessage(resolveAttachments(m, attachments), `${where}.messages[${i}]`));
  // The prompt is every message before the first generated one. Inspect marks a generated message
  // `source: "generate"` (an assistant message in the dataset's input, a few-shot turn, is `source: "input"`);
  // a log without `source` fields counts from the first assistant message.
  const marked = messages.some((m) => m.source !== undefined);
  let first = messages.findIndex((m) => m.role === 'assistant' && (!marked || m.source === 'generate'));
  if (first === -1) first = messages.length;
  const { segments, steps } = chatTurns(messages, first);
  for (const step of steps) {
    const message = messages.find((m) => m.role === 'tool' && m.tool_call_id === step.tool_call_id);
    const error = rec(message?.error);
    if (error && isRecord(step.observation)) step.observation.status = str(error.type) ?? 'error';
  }

  const scores = rec(sample.scores);
  const names = scores ? Object.keys(scores) : [];
  // The first scorer's value is the reward (the order the task lists its scorers); all are kept in extra.
  const primary = names[0] === undefined ? undefined : rec(scores?.[names[0]]);
  const reward = primary ? inspectValueToFloat(primary.value) : null;
  const termination = inspectTermination(sample);
  const extra: Json = compact({
    ...unmapped(sample, MAPPED),
    sample_id: sample.id,
    epoch: sample.epoch,
    scores: names.length > 0 ? scores : undefined,
    score_name: names[0],
    error: sample.error ?? undefined,
    limit: sample.limit ?? undefined,
    eval: Object.keys(spec.extra).length > 0 ? spec.extra : undefined,
  });
  const input = resolveAttachments(sample.input, attachments);
  return compact({
    source_format: format,
    task_id: spec.task === undefined ? id : `${spec.task}/${id}`,
    // Epochs of one sample share the task id, so they form one group: Inspect's natural repeats.
    rollout_id: str(sample.uuid) ?? fallbackId,
    policy_version: spec.model,
    sampling: spec.sampling,
    task: typeof input === 'string' ? { prompt: input } : undefined,
    transcript: messages,
    segments,
    steps: steps.length > 0 ? steps : undefined,
    termination,
    reward: rewardFor(termination, reward, extra),
    started_at: str(sample.started_at),
    ended_at: str(sample.completed_at),
    extra,
  });
}

/** A `.json` EvalLog: one rollout per sample; a log without samples is one E_SCHEMA saying so, not an empty run. */
export const convertInspectLog: Convert = (log, ctx) => {
  const samples = list(log.samples) ?? [];
  if (samples.length === 0)
    throw new ConvertError('samples: the log holds no samples (written with log_samples=False, or read header-only)');
  const spec = inspectSpec(log);
  return samples.map((s, i) => {
    const sample = rec(s);
    if (!sample) throw new ConvertError(`samples[${i}]: expected an EvalSample object`);
    return convertInspectSample(sample, spec, `samples[${i}]`, `${locator(ctx)}/samples[${i}]`, 'inspect-log');
  });
};

/**
 * One `samples/*.json` entry of a `.eval` archive; `ctx.metadata` is the InspectEntryContext the zip
 * reader passes (the spec read so far, the entry's name). Without a uuid, `<file>:<entry>` locates it.
 */
export const convertInspectEvalSample: Convert = (sample, ctx) => {
  const context = rec(ctx.metadata);
  const entry = str(context?.entry) ?? 'sample';
  return [convertInspectSample(sample, inspectSpec(rec(context?.log)), entry, `${ctx.file}:${entry}`, 'inspect-eval')];
};

/** Whether a value is an EvalLog (detection): `eval` with a `task`, and `samples` or a `status`. */
export function isInspectLog(v: Json): boolean {
  const spec = rec(v.eval);
  return spec !== undefined && typeof spec.task === 'string' && ('samples' in v || 'status' in v) && 'plan' in v;
}
