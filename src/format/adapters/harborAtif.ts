import { parseJson } from '../json';
import { compact, idOf, intArray, type Json, list, locator, numArray, rec, rewardFor, str, unmapped } from './read';
import type { Message, ToolCall } from './transcript';
import { type Convert, ConvertError } from './types';

/*
 * Harbor's Agent Trajectory Interchange Format (ATIF, docs/rfcs/0001-trajectory-format.md, v1.0–v1.5):
 * `{schema_version, session_id, agent: {name, version, model_name, extra}, steps, notes, final_metrics,
 * extra}`. A step has `source` (system | user | agent), `message`, and for agent steps `reasoning_content`,
 * `tool_calls` (`{tool_call_id, function_name, arguments}`), `observation.results` (`{source_call_id,
 * content, subagent_trajectory_ref}`) and `metrics` (`prompt_token_ids`, `completion_token_ids`,
 * `logprobs` since v1.3/v1.4). ATIF records neither a reward (Harbor's verifier writes it elsewhere) nor
 * why the run ended.
 */

const STEP_MAPPED = ['step_id', 'source', 'message', 'reasoning_content', 'tool_calls', 'observation', 'metrics'];
const METRIC_MAPPED = ['prompt_token_ids', 'completion_token_ids', 'logprobs'];

function calls(raw: unknown, where: string): ToolCall[] {
  return (list(raw) ?? []).map((c, i) => {
    const call = rec(c);
    if (!call) throw new ConvertError(`${where}.tool_calls[${i}]: expected a tool call object`);
    const args = call.arguments;
    return compact({
      ...unmapped(call, ['tool_call_id', 'function_name', 'arguments']),
      id: idOf(call.tool_call_id),
      name: str(call.function_name),
      arguments: args === undefined ? undefined : typeof args === 'string' ? args : JSON.stringify(args),
    });
  });
}

/**
 * Harbor's test placeholders for a session id (`tests/integration/test_utils.py` `normalize_trajectory`: the
 * main session becomes `NORMALIZED_SESSION_ID`, a summarization subagent's `NORMALIZED_SESSION_ID-summarization-
 * <n>-<summary|questions|answers>`, a UUID `NORMALIZED_UUID`): every golden file carries the same one, so it
 * names no rollout.
 */
const PLACEHOLDER_SESSION_ID = /^NORMALIZED_(?:SESSION_ID|UUID)(?:-summarization-\d+-(?:summary|questions|answers))?$/;

/** A call read from an agent step's text, with the arguments Harbor executes. */
interface TextCall {
  call: ToolCall;
  args: Json;
}

/**
 * The calls of a Terminus JSON response (`agents/terminus_2/terminus_json_plain_parser.py`, the
 * `terminus-json-plain.txt` prompt): `{"analysis", "plan", "commands": [{"keystrokes", "duration"}],
 * "task_complete"}`. Terminus writes them as ATIF `tool_calls` (`bash_command` per command, `mark_task_complete`
 * when the flag is set) unless `trajectory_config.raw_content` keeps the raw text, as the continuation files of
 * a linear-history run do. Read only when the whole message is that object (the three required fields, a
 * `commands` array of objects with string `keystrokes`); anything else (prose, broken JSON the parser
 * rejected) stays text. No id was recorded: each call's id is its location (`tool_call_id_is_locator`).
 */
function terminusCalls(text: string | null, at: string): TextCall[] | null {
  if (text === null || !text.trimStart().startsWith('{')) return null;
  let parsed: unknown;
  try {
    parsed = parseJson(text);
  } catch {
    return null;
  }
  const response = rec(parsed);
  const commands = list(response?.commands);
  if (!response || !commands || !('analysis' in response) || !('plan' in response)) return null;
  const out: TextCall[] = [];
  for (const [k, raw] of commands.entries()) {
    const command = rec(raw);
    const keystrokes = command?.keystrokes;
    if (typeof keystrokes !== 'string') return null;
    const duration = typeof command?.duration === 'number' ? command.duration : undefined;
    const args = compact({ keystrokes, duration });
    out.push({ call: { id: `${at}.commands[${k}]`, name: 'bash_command', arguments: JSON.stringify(args) }, args });
  }
  // The parser reads the flag as a boolean or a string ("true", "1", "yes").
  const done = response.task_complete;
  if (done === true || (typeof done === 'string' && ['true', '1', 'yes'].includes(done.toLowerCase()))) {
    out.push({ call: { id: `${at}.task_complete`, name: 'mark_task_complete', arguments: '{}' }, args: {} });
  }
  return out;
}

export const convertHarborAtif: Convert = (value, ctx) => {
  const steps = list(value.steps);
  if (!steps) throw new ConvertError('steps: expected an array of steps');
  const agent = rec(value.agent);
  const transcript: Message[] = [];
  const segments: Json[] = [];
  const v1Steps: Json[] = [];
  const models = new Set<string>();
  steps.forEach((raw, i) => {
    const where = `steps[${i}]`;
    const step = rec(raw);
    if (!step) throw new ConvertError(`${where}: expected a step object`);
    const source = str(step.source);
    if (source === undefined) throw new ConvertError(`${where}.source: expected "system", "user" or "agent"`);
    const text = typeof step.message === 'string' ? step.message : step.message === undefined ? null : JSON.stringify(step.message);
    const stepExtra = unmapped(step, STEP_MAPPED);
    const results = (list(rec(step.observation)?.results) ?? []).flatMap((r) => (rec(r) ? [rec(r) as Json] : []));
    if (source !== 'agent') {
      transcript.push(compact({ role: source === 'system' ? 'system' : 'user', content: text, extra: stepExtra }));
    } else {
      const recorded = calls(step.tool_calls, where);
      // No `tool_calls` recorded: the commands may still be in the text (Terminus with raw_content).
      const fromText = recorded.length === 0 ? terminusCalls(text, `${locator(ctx)}/${where}.message`) : null;
      const stepCalls = fromText ? fromText.map((c) => c.call) : recorded;
      const argsOf = (i: number): Json | undefined => (fromText ? fromText[i]?.args : rec(rec(list(step.tool_calls)?.[i])?.arguments));
      const model = str(step.model_name);
      if (model) models.add(model);
      transcript.push(
        compact({
          role: 'assistant',
          content: text,
          reasoning: str(step.reasoning_content),
          // Calls read from the text are not the model's tool calls: the transcript keeps what it wrote.
          tool_calls: recorded.length > 0 ? recorded : undefined,
          extra: stepExtra,
        }),
      );
      const metrics = rec(step.metrics);
      const promptIds = intArray(metrics?.prompt_token_ids);
      const completionIds = intArray(metrics?.completion_token_ids);
      const logprobs = numArray(metrics?.logprobs);
      const ids = stepCalls.flatMap((c) => (c.id === undefined ? [] : [c.id]));
      const segmentExtra = compact({ ...unmapped(metrics ?? {}, METRIC_MAPPED), step_id: step.step_id });
      segments.push(
        compact({
          // Token ids only where the step recorded them (ATIF v1.3+ metrics); otherwise a text segment.
          input_ids: completionIds && promptIds ? promptIds : [],
          generated_ids: completionIds ?? [],
          old_logprobs: completionIds && logprobs ? logprobs : [],
          old_logprobs_recorded: completionIds && !logprobs ? false : undefined,
          tool_call_id: ids[0] ?? null,
          tool_call_ids: ids.length > 1 ? ids : undefined,
          tool_call_id_is_locator: fromText && ids.length > 0 ? true : undefined,
          text: text ?? undefined,
          transcript_index: transcript.length - 1,
          extra: Object.keys(segmentExtra).length > 0 ? segmentExtra : undefined,
        }),
      );
      // A result names its call by `source_call_id`. A step's one unnamed result is its calls' output: Terminus
      // sends a batch of commands and reads the terminal once after the last (terminus_2.py: "All commands share
      // the same terminal output ... the observation applies to the entire step"), so each call is a step and
      // the output is the last one's observation; the others name that step (`extra.output_with`). Other
      // unnamed results are feedback to the model (parse errors), not executions.
      const batch = results.length === 1 && idOf(results[0]?.source_call_id) === undefined ? ids : [];
      results.forEach((r) => {
        const named = idOf(r.source_call_id);
        const id = named ?? batch.at(-1);
        const call = stepCalls.find((c) => c.id === id);
        const content = typeof r.content === 'string' ? r.content : '';
        const resultExtra = unmapped(r, ['source_call_id', 'content']);
        if (id !== undefined && call) {
          const joined = named === undefined ? batch : [id];
          joined.forEach((callId, k) => {
            const last = k === joined.length - 1;
            const i = stepCalls.findIndex((c) => c.id === callId);
            const stepExtra = compact({ ...resultExtra, read_from_text: fromText ? true : undefined, output_with: last ? undefined : id });
            v1Steps.push(
              compact({
                tool_call_id: callId,
                tool_call_id_is_locator: fromText ? true : undefined,
                tool: stepCalls[i]?.name ?? '',
                args: argsOf(i),
                observation: last ? { text: content } : undefined,
                extra: Object.keys(stepExtra).length > 0 ? stepExtra : undefined,
              }),
            );
          });
        }
        // The model read a text call's output as the next user turn: the transcript keeps it so.
        const answers = id !== undefined && call !== undefined && !fromText;
        transcript.push(
          compact({
            role: answers ? 'tool' : 'user',
            content,
            tool_call_id: answers ? id : undefined,
            extra: resultExtra,
          }),
        );
      });
      return;
    }
    // A system step's observation (a context summarization, a subagent handoff) is context, not a call.
    for (const r of results) transcript.push(compact({ role: 'user', content: str(r.content) ?? null, extra: unmapped(r, ['content']) }));
  });
  const extra: Json = unmapped(value, ['steps', 'session_id']) ?? {};
  const sessionId = idOf(value.session_id);
  // A placeholder is no identity: two golden files would be one rollout (E_DUPLICATE_ROLLOUT). The location
  // stands in, as it does when there is no id; the placeholder stays under extra.
  const placeholder = sessionId !== undefined && PLACEHOLDER_SESSION_ID.test(sessionId);
  if (placeholder) extra.session_id = sessionId;
  const termination = 'unknown';
  return [
    compact({
      source_format: 'harbor-atif',
      // The task lives in Harbor's trial directory, not in trajectory.json: the location stands in.
      task_id: locator(ctx),
      rollout_id: placeholder ? locator(ctx) : (sessionId ?? locator(ctx)),
      policy_version: str(agent?.model_name) ?? (models.size === 1 ? [...models][0] : undefined),
      transcript,
      segments,
      steps: v1Steps.length > 0 ? v1Steps : undefined,
      // ATIF records no stop reason and no reward (Harbor's verifier writes reward.txt beside it).
      termination,
      reward: rewardFor(termination, null, extra),
      extra: Object.keys(extra).length > 0 ? extra : undefined,
    }),
  ];
};
