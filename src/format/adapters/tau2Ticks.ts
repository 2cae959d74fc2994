import { int, type Json, list, num, rec, str } from './read';
import { ConvertError } from './types';

/*
 * tau2-bench full-duplex (voice) simulations record `ticks`, not `messages` (sierra-research/tau2-bench,
 * src/tau2/data_model/message.py `Tick`; orchestrator/full_duplex_orchestrator.py). Each tick holds the agent's
 * and the user's chunk of that slice of time (text, if any, is the chunk's `content`), and the tool calls each
 * side made in it with their results: the orchestrator strips the calls off the chunk into
 * `agent_tool_calls`/`user_tool_calls` and executes them within the tick.
 *
 * Here ticks become the messages a half-duplex simulation would have written, so the message path reads them:
 * one message per utterance, a maximal run of consecutive ticks in which that side speaks (`contains_speech`,
 * or text in the chunk), as tau2's own viewer cuts speech (src/experiments/tau_voice/visualization/
 * export_viewer.py `_extract_speech_segments`), split where the chunks' `utterance_ids` change (a new response
 * item; `merge_message_chunks` joins across such a change with a space). A side's tool calls in a tick are one
 * message of that side with the calls, followed by their results. Within a tick the order is
 * `Tick.get_all_messages`'s: agent, agent results, user, user results. Speech overlaps in full duplex: each
 * utterance sits where it began.
 */

/** Where in the simulation a message happened: its first and last tick and, when the tick length is known, seconds. */
interface Span {
  ticks: [number, number];
  seconds?: [number, number];
}

interface OpenRun {
  message: Json;
  texts: string[];
  ids: Set<string>;
  first: TickTime;
  last: TickTime;
}

interface TickTime {
  id: number;
  length: number | undefined;
}

/** Seconds from a tick count, to the millisecond as tau2's viewer rounds them (0.2 × 3 is not 0.6 in floating point). */
function seconds(tick: number, length: number): number {
  return Math.round(tick * length * 1000) / 1000;
}

function span(first: TickTime, last: TickTime): Span {
  const out: Span = { ticks: [first.id, last.id] };
  if (first.length !== undefined && last.length !== undefined) {
    out.seconds = [seconds(first.id, first.length), seconds(last.id + 1, last.length)];
  }
  return out;
}

function chunkAt(raw: unknown, path: string): Json | undefined {
  if (raw === undefined || raw === null) return undefined;
  const chunk = rec(raw);
  if (!chunk) throw new ConvertError(`${path}: expected a message chunk object or null`);
  return chunk;
}

function text(chunk: Json): string {
  return str(chunk.content) ?? '';
}

/** `contains_speech` defaults to true in tau2's model (`ParticipantMessageBase`); text in the chunk counts too. */
function speaks(chunk: Json | undefined): chunk is Json {
  if (!chunk) return false;
  const flag = chunk.contains_speech;
  return (typeof flag === 'boolean' ? flag : true) || text(chunk) !== '';
}

function utteranceIds(chunk: Json): string[] {
  return (list(chunk.utterance_ids) ?? []).filter((id): id is string => typeof id === 'string');
}

function objects(raw: unknown, path: string): Json[] {
  if (raw === undefined || raw === null) return [];
  const items = list(raw);
  if (!items) throw new ConvertError(`${path}: expected an array`);
  return items.map((item, i) => {
    const value = rec(item);
    if (!value) throw new ConvertError(`${path}[${i}]: expected an object`);
    return value;
  });
}

/** One side of the conversation: its open utterance, and the last one (a tick's `user_transcript` joins the user's). */
class Side {
  private open: OpenRun | undefined;
  last: OpenRun | undefined;

  constructor(
    private readonly role: string,
    private readonly out: Json[],
  ) {}

  /** Adds this tick's chunk: continues the open utterance, starts one, or ends it on silence. */
  hear(chunk: Json | undefined, at: TickTime): void {
    if (!speaks(chunk)) {
      this.close();
      return;
    }
    const ids = utteranceIds(chunk);
    const run = this.open;
    const newItem = run !== undefined && run.ids.size > 0 && ids.length > 0 && ids.every((id) => !run.ids.has(id));
    if (newItem) this.close();
    if (this.open === undefined) {
      const message: Json = { role: this.role, content: null };
      const timestamp = str(chunk.timestamp);
      if (timestamp !== undefined) message.timestamp = timestamp;
      this.out.push(message);
      this.open = { message, texts: [], ids: new Set(), first: at, last: at };
      this.last = this.open;
    }
    const open = this.open;
    if (text(chunk) !== '') open.texts.push(text(chunk));
    for (const id of ids) open.ids.add(id);
    open.last = at;
  }

  close(): void {
    const run = this.open;
    if (!run) return;
    this.open = undefined;
    Object.assign(run.message, span(run.first, run.last));
    if (run.ids.size > 0) run.message.utterance_ids = [...run.ids];
    // Speech whose text the file does not hold (audio only, or stripped): said, not invented.
    if (run.texts.length === 0) run.message.audio_only = true;
    else run.message.content = run.texts.join('');
  }
}

/**
 * The messages of a full-duplex simulation's `ticks` (tau2 message shapes: tool results keep their `id` and
 * `requestor`), each with `ticks` [first, last] and, when `tick_duration_seconds` is known (on the tick, else
 * `tickSeconds` from the run's `audio_native_config`), `seconds` [start, end]. `first` is the index of the
 * first message a model generated: tick 0's agent chunk is the orchestrator's opening
 * (`create_initial_message` or `DEFAULT_FIRST_AGENT_MESSAGE`), written before the agent ran.
 */
export function tickMessages(raw: unknown, path: string, tickSeconds?: number): { messages: Json[]; first: number } {
  const ticks = list(raw);
  if (!ticks) throw new ConvertError(`${path}: expected an array of ticks`);
  const messages: Json[] = [];
  const agent = new Side('assistant', messages);
  const user = new Side('user', messages);
  let first = 0;
  ticks.forEach((value, i) => {
    const where = `${path}[${i}]`;
    const tick = rec(value);
    if (!tick) throw new ConvertError(`${where}: expected a tick object`);
    const id = int(tick.tick_id);
    if (id === undefined) throw new ConvertError(`${where}.tick_id: expected an integer`);
    const at: TickTime = { id, length: num(tick.tick_duration_seconds) ?? tickSeconds };
    const agentChunk = chunkAt(tick.agent_chunk, `${where}.agent_chunk`);
    if (i === 0 && speaks(agentChunk)) {
      messages.push({ role: 'assistant', content: str(agentChunk.content) ?? null, ...span(at, at) });
      first = messages.length;
    } else agent.hear(agentChunk, at);
    act('assistant', tick, 'agent', where, at, messages);
    user.hear(chunkAt(tick.user_chunk, `${where}.user_chunk`), at);
    act('user', tick, 'user', where, at, messages);
    const heard = str(tick.user_transcript);
    const said = user.last?.message;
    if (heard !== undefined && heard !== '' && said) said.user_transcript = `${str(said.user_transcript) ?? ''}${heard}`;
  });
  agent.close();
  user.close();
  return { messages, first };
}

/** A side's tool calls in this tick, as one message of that side, then their results. */
function act(role: string, tick: Json, side: 'agent' | 'user', where: string, at: TickTime, out: Json[]): void {
  const calls = objects(tick[`${side}_tool_calls`], `${where}.${side}_tool_calls`);
  const results = objects(tick[`${side}_tool_results`], `${where}.${side}_tool_results`);
  const when = span(at, at);
  if (calls.length > 0) out.push({ role, content: null, tool_calls: calls, ...when });
  results.forEach((result, i) => {
    if (result.role !== 'tool') throw new ConvertError(`${where}.${side}_tool_results[${i}].role: expected "tool"`);
    out.push({ ...result, ...when });
  });
}
