import { compact, idOf, isRecord, list, rec, str } from '../read';
import { contentText, type Message, type ToolCall } from '../transcript';
import { type Attrs, asText, expandDotted, parseOrText } from './attributes';

/*
 * Messages written as flattened attributes, one key per field: OpenInference's
 * `llm.input_messages.N.message.*` / `llm.output_messages.N.message.*` (also as a list of dotted-key
 * objects, the spec's example shape) and the deprecated `gen_ai.prompt.N.*` / `gen_ai.completion.N.*`.
 */

/** A tool call as the transcript holds it: arguments as the text the model wrote. */
export function call(id: unknown, name: unknown, args: unknown): ToolCall {
  return compact({ id: idOf(id), name: str(name), arguments: asText(args === null ? undefined : args) });
}

/** OpenInference `llm.*_messages.N.message.*` (flattened) or a list of such message objects. */
export function openInferenceMessages(attrs: Attrs, key: string): Message[] | undefined {
  const items = attrs.indexed(key) ?? list(attrs.get(key));
  if (!items) return undefined;
  return items.flatMap((item): Message[] => {
    // The spec's examples also write a message list unflattened, each element with dotted keys.
    const el = isRecord(item) ? expandDotted(item) : undefined;
    const m = rec(el?.message) ?? el;
    if (!m) return [];
    const expand = (v: unknown) => (isRecord(v) ? expandDotted(v) : v);
    const contents = (list(m.contents) ?? []).map((c) => rec(rec(expand(c))?.message_content) ?? c);
    const texts = contents.flatMap((c) => (isRecord(c) && typeof c.text === 'string' ? [c.text] : []));
    const content = str(m.content) ?? (texts.length > 0 ? texts.join('\n') : null);
    const calls = (list(m.tool_calls) ?? []).map((tc) => {
      const t = rec(rec(expand(tc))?.tool_call) ?? rec(expand(tc)) ?? {};
      const fn = rec(t.function) ?? {};
      return call(t.id, fn.name, fn.arguments);
    });
    const out: Message = compact({ role: str(m.role) ?? 'unknown', content, name: str(m.name), tool_call_id: idOf(m.tool_call_id) });
    if (calls.length > 0) out.tool_calls = calls;
    if (contents.length > texts.length) out.content_parts = contents;
    return [out];
  });
}

/** Deprecated `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` (OpenLLMetry, semconv before 1.28). */
export function flattenedMessages(
  attrs: Attrs,
  key: 'gen_ai.prompt' | 'gen_ai.completion',
): { messages: Message[]; finishReasons: string[] } | undefined {
  const items = attrs.indexed(key);
  if (!items) return undefined;
  const finishReasons: string[] = [];
  const messages = items.flatMap((item): Message[] => {
    const m = rec(item);
    if (!m) return typeof item === 'string' ? [{ role: key === 'gen_ai.prompt' ? 'user' : 'assistant', content: item }] : [];
    const finish = str(m.finish_reason);
    if (finish !== undefined) finishReasons.push(finish);
    // Content may be the JSON of multi-part content (`[{"type": "text", …}]`).
    const raw = typeof m.content === 'string' && m.content.trimStart().startsWith('[') ? parseOrText(m.content) : m.content;
    const { text, parts } = contentText(raw);
    const calls = (list(m.tool_calls) ?? []).map((tc) => {
      const t = rec(tc) ?? {};
      return call(t.id, t.name ?? rec(t.function)?.name, t.arguments ?? rec(t.function)?.arguments);
    });
    const out: Message = compact({
      role: str(m.role) ?? (key === 'gen_ai.prompt' ? 'user' : 'assistant'),
      content: text,
      tool_call_id: idOf(m.tool_call_id),
      content_parts: Array.isArray(raw) ? parts : undefined,
    });
    if (calls.length > 0) out.tool_calls = calls;
    return [out];
  });
  return { messages, finishReasons };
}
