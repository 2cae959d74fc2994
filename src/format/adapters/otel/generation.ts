import { compact, intArray, type Json, num, rec } from '../read';
import { samplingFrom } from '../sampling';
import type { Message } from '../transcript';
import { type Attrs, parseOrText } from './attributes';
import type { Span } from './spans';

/*
 * What one model-call span says about its generation beyond the messages: what kind of span it is,
 * its token usage, its sampling parameters, its token ids, and how its context continues the
 * conversation recorded so far.
 */

export type Role = 'llm' | 'tool' | 'agent' | 'other';

const LLM_OPS = new Set(['chat', 'text_completion', 'generate_content', 'completion', 'call_llm']);
const AGENT_OPS = new Set(['invoke_agent', 'create_agent', 'invoke_workflow']);

/** What a span is, from `gen_ai.operation.name`, else the OpenInference span kind, else the attributes it carries. */
export function roleOf(span: Span): Role {
  const v = span.attrs.values;
  const op = v['gen_ai.operation.name'];
  if (typeof op === 'string') {
    if (LLM_OPS.has(op)) return 'llm';
    if (op === 'execute_tool') return 'tool';
    if (AGENT_OPS.has(op)) return 'agent';
  }
  const oi = v['openinference.span.kind'];
  const kind = (typeof oi === 'string' ? oi : span.spanKind)?.toUpperCase();
  if (kind === 'LLM') return 'llm';
  if (kind === 'TOOL') return 'tool';
  if (kind === 'AGENT' || kind === 'CHAIN') return 'agent';
  const type = v['gen_ai.request.type'] ?? v['llm.request.type'];
  const keys = Object.keys(v);
  if (
    type === 'chat' ||
    type === 'completion' ||
    keys.some((k) => k === 'gen_ai.output.messages' || k.startsWith('gen_ai.completion.') || k === 'response_token_ids') ||
    span.events.some(
      (e) => e.name === 'gen_ai.choice' || e.name === 'gen_ai.content.completion' || e.name === 'gen_ai.client.inference.operation.details',
    )
  )
    return 'llm';
  if (typeof v['gen_ai.tool.name'] === 'string') return 'tool';
  return 'other';
}

/**
 * Token usage: `usage.input_tokens` / `usage.output_tokens` from `gen_ai.usage.input_tokens` /
 * `output_tokens` (the deprecated `prompt_tokens` / `completion_tokens`, OpenInference
 * `llm.token_count.prompt` / `completion`); the other counts (cache, reasoning, totals) as written.
 */
export function usageOf(attrs: Attrs): Json {
  const gen = attrs.nested('gen_ai.usage') ?? {};
  const oi = attrs.nested('llm.token_count') ?? {};
  const take = (from: Json, ...keys: string[]) => {
    for (const k of keys) {
      const v = from[k];
      const n = num(v) ?? (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);
      if (n === undefined) continue;
      delete from[k];
      return n;
    }
    return undefined;
  };
  const usage = compact({
    input_tokens: take(gen, 'input_tokens', 'prompt_tokens') ?? take(oi, 'prompt'),
    output_tokens: take(gen, 'output_tokens', 'completion_tokens') ?? take(oi, 'completion'),
  });
  return compact({
    usage: Object.keys(usage).length > 0 ? usage : undefined,
    gen_ai_usage: Object.keys(gen).length > 0 ? gen : undefined,
    llm_token_count: Object.keys(oi).length > 0 ? oi : undefined,
  });
}

export function samplingOf(attrs: Attrs): Json | undefined {
  const fromGenAi = samplingFrom(
    compact({
      temperature: attrs.num('gen_ai.request.temperature'),
      top_p: attrs.num('gen_ai.request.top_p'),
      top_k: attrs.num('gen_ai.request.top_k'),
      max_tokens: attrs.num('gen_ai.request.max_tokens'),
      seed: attrs.num('gen_ai.request.seed'),
    }),
  );
  // OpenInference `llm.invocation_parameters` (JSON) is read, not consumed: it holds more than sampling.
  const invocation = attrs.values['llm.invocation_parameters'];
  return fromGenAi ?? samplingFrom(rec(typeof invocation === 'string' ? parseOrText(invocation) : invocation));
}

/** Where a message list's conversation starts: after its leading system messages (instructions may be recorded apart). */
function afterSystem(ms: readonly Message[]): number {
  const i = ms.findIndex((m) => m.role !== 'system');
  return i === -1 ? ms.length : i;
}

/**
 * The part of a call's context that is new, when the context continues the transcript (same roles, same
 * system and user text, leading system messages aside); undefined when it does not (it was rewritten).
 */
export function continuation(ctx: readonly Message[], transcript: readonly Message[]): Message[] | undefined {
  const t0 = afterSystem(transcript);
  const c0 = afterSystem(ctx);
  const turns = transcript.length - t0;
  if (ctx.length - c0 < turns) return undefined;
  for (let i = 0; i < turns; i++) {
    const m = transcript[t0 + i] as Message;
    const c = ctx[c0 + i] as Message;
    if (c.role !== m.role) return undefined;
    if (m.role === 'user' && typeof m.content === 'string' && typeof c.content === 'string' && m.content !== c.content) return undefined;
  }
  return ctx.slice(c0 + turns);
}

/** Agent Lightning's token ids on a model-call span (`prompt_token_ids`, `response_token_ids`; no logprobs). */
export function tokenIds(attrs: Attrs): { input: number[]; generated: number[] } | undefined {
  const input = intArray(attrs.values.prompt_token_ids);
  const generated = intArray(attrs.values.response_token_ids);
  if (!input || !generated) return undefined;
  attrs.get('prompt_token_ids');
  attrs.get('response_token_ids');
  return { input, generated };
}
