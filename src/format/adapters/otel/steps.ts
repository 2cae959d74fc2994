import { compact, idOf, isRecord, type Json } from '../read';
import { type Message, parsedArguments, type ToolCall } from '../transcript';
import { asText } from './attributes';
import type { Span } from './spans';

/*
 * Tool spans (`gen_ai.operation.name` `execute_tool`, OpenInference kind TOOL) as v1 steps, and their
 * pairing with the calls the model generated: by tool call id where both sides record one, else by
 * order (the next unpaired call of the generation just before the tool span, of the same name).
 */

export interface ToolRun {
  span: Span;
  callId?: string;
  name: string;
  args?: unknown;
  result?: unknown;
  /** Index of the generation just before this span in time (the one whose calls it can answer). */
  owner?: number;
  /** The id the step gets: the span's, the paired call's, or a locator. */
  id: string;
  locator: boolean;
  pairedBy?: 'id' | 'order';
  call?: ToolCall;
}

/** A generated call, and the tool span that executed it once paired. */
export interface Slot {
  call: ToolCall;
  run?: ToolRun;
}

export function readToolSpan(span: Span, owner: number | undefined, locator: string): ToolRun {
  const a = span.attrs;
  const callId = idOf(a.get('gen_ai.tool.call.id') ?? a.get('tool_call.id') ?? a.get('tool.id'));
  const name = a.str('gen_ai.tool.name') ?? a.str('tool.name') ?? span.name?.replace(/^execute_tool /, '') ?? '';
  let args: unknown;
  if (a.has('gen_ai.tool.call.arguments')) args = a.json('gen_ai.tool.call.arguments');
  else if (a.has('input.value')) {
    a.get('input.mime_type');
    args = a.json('input.value');
  } else if (a.has('gen_ai.tool.args')) args = a.json('gen_ai.tool.args');
  let result: unknown;
  if (a.has('gen_ai.tool.call.result')) result = a.get('gen_ai.tool.call.result');
  else if (a.has('output.value')) {
    a.get('output.mime_type');
    result = a.get('output.value');
  } else if (a.has('gen_ai.output')) {
    a.get('gen_ai.output.type');
    result = a.get('gen_ai.output');
  }
  return { span, callId, name, args, result, owner, id: callId ?? locator, locator: callId === undefined };
}

/**
 * Pairs each tool run with a generated call (`slots[k]`: generation k's calls): by id first, else the
 * next unpaired call of the same name of the generation just before the run. A run of a generation
 * whose output was not recorded (`recorded[k]` false: content capture off) is its call by order, with
 * no call to pair. A paired call without an id takes the run's.
 */
export function pair(runs: readonly ToolRun[], slots: readonly Slot[][], recorded: readonly boolean[]): void {
  const byId = new Map<string, Slot>();
  for (const s of slots.flat()) if (s.call.id !== undefined && !byId.has(s.call.id)) byId.set(s.call.id, s);
  for (const run of runs) {
    let slot = run.callId === undefined ? undefined : byId.get(run.callId);
    if (slot && !slot.run) run.pairedBy = 'id';
    else {
      const mine = run.owner === undefined ? [] : (slots[run.owner] ?? []);
      slot = mine.find(
        (s) =>
          !s.run &&
          (run.callId === undefined || s.call.id === undefined) &&
          (s.call.name === undefined || run.name === '' || s.call.name === run.name),
      );
      if (slot) run.pairedBy = 'order';
      else if (run.owner !== undefined && recorded[run.owner] === false) run.pairedBy = 'order';
    }
    if (!slot) continue;
    slot.run = run;
    run.call = slot.call;
    if (run.callId === undefined && slot.call.id !== undefined) {
      run.id = slot.call.id;
      run.locator = false;
    }
  }
}

export function stepOf(run: ToolRun): Json {
  const { span, args } = run;
  const extra = compact({
    span_id: span.spanId,
    arguments: args !== undefined && !isRecord(args) ? args : undefined,
    status_message: span.statusMessage,
  });
  return compact({
    tool_call_id: run.id,
    tool: run.name,
    args: isRecord(args) ? args : args === undefined ? parsedArguments(run.call) : undefined,
    observation: compact({ text: asText(run.result), status: span.status === 'error' ? 'error' : 'ok' }),
    started_at: span.startedAt,
    ended_at: span.endedAt,
    tool_call_id_is_locator: run.locator ? true : undefined,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  });
}

/** A tool result as the transcript shows it, when no later model call records its context. */
export function toolMessage(run: ToolRun): Message {
  return compact({ role: 'tool', content: asText(run.result) ?? null, tool_call_id: run.id, name: run.name || undefined });
}
