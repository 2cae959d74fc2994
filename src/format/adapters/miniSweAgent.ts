import { compact, type Json, list, locator, num, rec, rewardFor, str, unmapped } from './read';
import { chatTurns, type Message, normalizeMessages, parsedArguments } from './transcript';
import { type Convert, type ConvertContext, ConvertError, type Termination } from './types';

/*
 * mini-swe-agent trajectories (SWE-agent/mini-swe-agent at a83fcae): `DefaultAgent.serialize` writes
 * `{info: {exit_status, submission, model_stats, config, mini_version}, messages, trajectory_format:
 * "mini-swe-agent-1.1"}`, and the SWE-bench runner adds `instance_id` (run/benchmarks/swebench.py). With a
 * tool-calling model, assistant messages carry `tool_calls` with ids answered by `tool` messages; with a
 * text model the action is a fenced block and the observation the next `user` message. The run ends with
 * a message of role `exit` whose `extra` holds the status. Older versions saved the bare message array.
 */

/** Exit statuses: the InterruptAgentFlow subclasses' names (exceptions.py) and DefaultAgent.run's own. */
const EXIT_STATUSES: Record<string, Termination> = {
  Submitted: 'finished',
  LimitsExceeded: 'budget_exhausted', // step_limit or cost_limit reached
  TimeExceeded: 'budget_exhausted', // wall_time_limit_seconds reached
  RepeatedFormatError: 'invalid_call', // max_consecutive_format_errors
  UserInterruption: 'cancelled',
};

/** A status the table lists, else as written (an uncaught exception's class name); none → `unknown`. */
export function miniSweAgentTermination(status: unknown): string {
  const s = str(status);
  if (s === undefined || s === '') return 'unknown';
  return EXIT_STATUSES[s] ?? s;
}

/** The action blocks mini-swe-agent's text parser reads (`action_regex`: ```mswea_bash_command, older ```bash). */
const ACTION_BLOCK = /```(?:mswea_bash_command|bash)\s*\n([\s\S]*?)\n```/g;

function textActions(message: Message): string[] {
  return message.content === null ? [] : [...message.content.matchAll(ACTION_BLOCK)].map((m) => m[1] ?? '');
}

/**
 * Segments and steps. Calls with ids join their tool messages. A text action (exactly one block, as the
 * parser requires; any other count is a format error, not executed) answered by the next `user` message
 * is an executed step too: it gets its location as its id, marked as a locator.
 */
function turns(messages: Message[], ctx: ConvertContext, at: string) {
  const { segments, steps } = chatTurns(messages, 0);
  messages.forEach((m, i) => {
    if (m.role !== 'assistant' || (m.tool_calls?.length ?? 0) > 0) return;
    const actions = list(rec(m.extra)?.actions)?.flatMap((a) => str(rec(a)?.command) ?? []) ?? textActions(m);
    const next = messages[i + 1];
    if (actions.length !== 1 || next?.role !== 'user') return;
    const id = `${locator(ctx)}${at}/messages[${i}]`;
    const segment = segments.find((s) => s.transcript_index === i);
    if (segment) {
      segment.tool_call_id = id;
      segment.tool_call_id_is_locator = true;
    }
    steps.push({
      tool_call_id: id,
      tool_call_id_is_locator: true,
      tool: 'bash',
      args: { command: actions[0] },
      observation: { text: next.content ?? '' },
    });
  });
  return { segments, steps };
}

/**
 * The command that submitted: the environment raised Submitted from its output (environments/docker.py
 * `_check_finished`), so it has no tool message; the `exit` message's content is that output.
 */
function submittedStep(chat: Message[], segments: Json[], steps: Json[], exit: Message, ctx: ConvertContext): void {
  const i = chat.length - 1;
  const last = chat[i];
  if (last?.role !== 'assistant') return;
  const segment = segments.find((s) => s.transcript_index === i);
  const calls = last.tool_calls ?? [];
  const actions = textActions(last);
  if (calls.length > 1 || (calls.length === 0 && actions.length !== 1)) return;
  const call = calls[0];
  const id = call?.id ?? `${locator(ctx)}/messages[${i}]`;
  if (steps.some((s) => s.tool_call_id === id)) return;
  if (segment && call?.id === undefined) {
    segment.tool_call_id = id;
    segment.tool_call_id_is_locator = true;
  }
  steps.push(
    compact({
      tool_call_id: id,
      tool_call_id_is_locator: call?.id === undefined ? true : undefined,
      tool: call?.name ?? 'bash',
      args: call ? parsedArguments(call) : { command: actions[0] },
      observation: { text: exit.content ?? '' },
    }),
  );
}

export const convertMiniSweAgent: Convert = (value, ctx) => {
  const raw = list(value.messages);
  if (!raw) throw new ConvertError('messages: expected an array of chat messages');
  const messages = normalizeMessages(raw, 'messages');
  const info = rec(value.info);
  const exit = [...messages].reverse().find((m) => m.role === 'exit');
  const status = info?.exit_status ?? rec(exit?.extra)?.exit_status;
  const termination = miniSweAgentTermination(status);
  // The `exit` message is the agent's record of how it stopped, not something the model saw.
  const chat = messages.filter((m) => m.role !== 'exit');
  const { segments, steps } = turns(chat, ctx, '');
  if (str(status) === 'Submitted' && exit) submittedStep(chat, segments, steps, exit, ctx);
  const config = rec(info?.config);
  const model = rec(config?.model);
  const kwargs = rec(model?.model_kwargs);
  const sampling = compact({ temperature: num(kwargs?.temperature), top_p: num(kwargs?.top_p) });
  const bare = Object.keys(value).length === 1;
  const extra: Json = compact({ ...unmapped(value, ['messages', 'instance_id']), exit_message: exit });
  const submission = str(info?.submission) ?? str(rec(exit?.extra)?.submission);
  const firstUser = chat.find((m) => m.role === 'user');
  return [
    compact({
      source_format: 'mini-swe-agent',
      task_id: str(value.instance_id) ?? locator(ctx),
      // A trajectory names no rollout id: its location stands in.
      rollout_id: locator(ctx),
      policy_version: str(model?.model_name),
      sampling: Object.keys(sampling).length > 0 ? sampling : undefined,
      task: firstUser?.content ? { prompt: firstUser.content } : undefined,
      transcript: chat,
      segments,
      steps: steps.length > 0 ? steps : undefined,
      termination,
      // mini-swe-agent does not grade: SWE-bench evaluates `submission` separately.
      reward: rewardFor(termination, null, extra),
      grading: submission ? { artifact: submission } : undefined,
      extra: bare || Object.keys(extra).length === 0 ? undefined : extra,
    }),
  ];
};
