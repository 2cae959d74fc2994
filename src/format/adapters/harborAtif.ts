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
      const stepCalls = calls(step.tool_calls, where);
      const model = str(step.model_name);
      if (model) models.add(model);
      transcript.push(
        compact({
          role: 'assistant',
          content: text,
          reasoning: str(step.reasoning_content),
          tool_calls: stepCalls.length > 0 ? stepCalls : undefined,
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
          text: text ?? undefined,
          transcript_index: transcript.length - 1,
          extra: Object.keys(segmentExtra).length > 0 ? segmentExtra : undefined,
        }),
      );
      // A result names its call by `source_call_id`; a step with one call and one unnamed result is that
      // call's (Terminus writes it so). Other unnamed results are feedback to the model, not executions.
      results.forEach((r) => {
        const id = idOf(r.source_call_id) ?? (stepCalls.length === 1 && results.length === 1 ? ids[0] : undefined);
        const call = stepCalls.find((c) => c.id === id);
        const content = typeof r.content === 'string' ? r.content : '';
        if (id !== undefined && call) {
          const args = rec(list(step.tool_calls)?.[stepCalls.indexOf(call)]);
          v1Steps.push(
            compact({
              tool_call_id: id,
              tool: call.name ?? '',
              args: rec(args?.arguments),
              observation: { text: content },
              extra: unmapped(r, ['source_call_id', 'content']),
            }),
          );
        }
        transcript.push(
          compact({
            role: id !== undefined && call ? 'tool' : 'user',
            content,
            tool_call_id: id !== undefined && call ? id : undefined,
            extra: unmapped(r, ['source_call_id', 'content']),
          }),
        );
      });
      return;
    }
    // A system step's observation (a context summarization, a subagent handoff) is context, not a call.
    for (const r of results) transcript.push(compact({ role: 'user', content: str(r.content) ?? null, extra: unmapped(r, ['content']) }));
  });
  const extra: Json = unmapped(value, ['steps', 'session_id']) ?? {};
  const termination = 'unknown';
  return [
    compact({
      source_format: 'harbor-atif',
      // The task lives in Harbor's trial directory, not in trajectory.json: the location stands in.
      task_id: locator(ctx),
      rollout_id: idOf(value.session_id) ?? locator(ctx),
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
