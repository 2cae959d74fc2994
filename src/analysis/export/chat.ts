import { type Rollout, recordTranscript, type TranscriptMessage } from '../../format';
import { startsWithPair } from '../ids';
import type { TokenText } from '../rewrite';

/*
 * A rollout as a chat conversation in OpenAI's message form, for training data (`trajscope export --as
 * sft|dpo`). Two sources, in this order:
 *   - the record's `transcript` (a format converted from a tool that records messages, docs/formats.md):
 *     its messages, with tool calls in OpenAI's shape;
 *   - its token ids, decoded (the record's token strings, else the tokenizer it names): the last
 *     generation's context followed by that generation, cut into the turns its chat template wrote.
 * The turns are kept as the template rendered them (a tool result rendered as a user turn stays one), so
 * the recorded chat template renders the messages back to the same tokens the model saw and produced.
 */

interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface ChatMessage {
  role: string;
  content: string | null;
  name?: string;
  tool_call_id?: string;
  tool_calls?: ChatToolCall[];
}

/** Why a rollout has no conversation (each is counted in the export's summary). */
export type ChatSkip = 'no_text' | 'context_rewritten' | 'unknown_template' | 'no_model_turn';

/** The words the summary uses for each reason, after "3 rollouts". */
export const CHAT_SKIP_WORDS: Record<ChatSkip, string> = {
  no_text: 'with no token text or transcript',
  context_rewritten: 'with a context rewritten between turns',
  unknown_template: 'in a chat template whose turns cannot be told apart',
  no_model_turn: 'with no model turn',
};

export type Conversation = { messages: ChatMessage[] } | { skipped: ChatSkip };

/**
 * How a chat template opens and closes a turn: ChatML (Qwen, many others) and Llama 3's headers. A
 * context in any other template is not guessed at: the rollout is skipped, and the summary says why.
 */
const TURN_GRAMMARS: readonly RegExp[] = [
  /<\|im_start\|>([A-Za-z_]+)\n([\s\S]*?)(?:<\|im_end\|>|$)/g,
  /<\|start_header_id\|>([A-Za-z_]+)<\|end_header_id\|>\n\n([\s\S]*?)(?:<\|eot_id\|>|<\|eom_id\|>|$)/g,
];

/** Between turns only space and control tokens (`<|begin_of_text|>`) may stand; other text means another layout. */
const BETWEEN_TURNS = /^(?:\s|<\|[A-Za-z0-9_]+\|>)*$/;

/**
 * The turns of a rendered conversation, or null when no known template wrote it: no turn found, or text
 * outside the turns that would be lost.
 */
export function templateTurns(text: string): ChatMessage[] | null {
  for (const grammar of TURN_GRAMMARS) {
    const matches = [...text.matchAll(grammar)];
    if (matches.length === 0) continue;
    if (!BETWEEN_TURNS.test(text.replace(grammar, ''))) return null;
    return matches.map((m) => ({ role: m[1] ?? '', content: m[2] ?? '' }));
  }
  return null;
}

/** Up to and including the last model turn: what follows it teaches nothing. */
function throughLastModelTurn(messages: ChatMessage[]): Conversation {
  let last = messages.length - 1;
  while (last >= 0 && messages[last]?.role !== 'assistant') last--;
  return last < 0 ? { skipped: 'no_model_turn' } : { messages: messages.slice(0, last + 1) };
}

function fromTranscript(transcript: readonly TranscriptMessage[]): ChatMessage[] {
  return transcript.map((m) => {
    const calls = m.tool_calls?.map(
      (c, i): ChatToolCall => ({
        id: c.id ?? `call_${i}`,
        type: 'function',
        function: { name: c.name ?? '', arguments: c.arguments ?? '{}' },
      }),
    );
    return {
      role: m.role,
      content: m.content ?? null,
      ...(m.name === undefined ? {} : { name: m.name }),
      ...(m.tool_call_id === undefined ? {} : { tool_call_id: m.tool_call_id }),
      ...(calls && calls.length > 0 ? { tool_calls: calls } : {}),
    };
  });
}

function fromTokens(record: Rollout, tokenText: TokenText | null): Conversation {
  const segments = record.segments;
  const last = segments.at(-1);
  if (!last || last.input_ids.length + last.generated_ids.length === 0) return { skipped: 'no_text' };
  // One conversation holds every model turn only when each context carries the last one on whole.
  for (let j = 1; j < segments.length; j++) {
    const [prev, seg] = [segments[j - 1], segments[j]];
    if (prev && seg && !startsWithPair(seg.input_ids, prev.input_ids, prev.generated_ids)) return { skipped: 'context_rewritten' };
  }
  const text = tokenText?.text([...last.input_ids, ...last.generated_ids]) ?? null;
  if (text === null) return { skipped: 'no_text' };
  const turns = templateTurns(text);
  return turns === null ? { skipped: 'unknown_template' } : throughLastModelTurn(turns);
}

/**
 * The rollout's conversation through its last model turn: from its transcript, else its decoded tokens
 * (`tokenText`: lint's token text, the record's strings then the tokenizer it names). Skipped, with the
 * reason, when neither gives text or the turns cannot be found.
 */
export function conversationOf(record: Rollout, tokenText: TokenText | null): Conversation {
  const transcript = recordTranscript(record);
  if (transcript && transcript.length > 0) return throughLastModelTurn(fromTranscript(transcript));
  return fromTokens(record, tokenText);
}
