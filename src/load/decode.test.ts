import { afterEach, describe, expect, it, vi } from 'vitest';
import { QWEN3_TOKEN_TABLE, qwenTokenTable } from '../../scripts/qwenTokenTablePlugin.ts';
import { buildRollout, buildSegment } from '../testing/builders';
import { isQwenTokenizer, makeDecoder, qwenTokenizerOptions } from './decode';

describe('makeDecoder', () => {
  it('uses the record’s own token strings when there is no tokenizer', () => {
    const r = buildRollout({
      tokenizer: { name: 'mystery', version: '1' },
      segments: [buildSegment({ input_ids: [1, 2], input_tokens: ['he', 'llo'] })],
    });
    const d = makeDecoder(r, null);
    expect(d.source).toBe('record');
    expect(d.piece(2)).toBe('llo');
    expect(d.text([1, 2, 1])).toBe('hellohe');
    expect(d.text([1, 99])).toBeNull();
  });

  it('says why it shows ids when it has nothing to decode with', () => {
    const d = makeDecoder(buildRollout({ tokenizer: { name: 'mystery', version: '1' } }), null);
    expect(d.source).toBe('none');
    expect(d.note).toContain('mystery');
    expect(d.piece(1)).toBeNull();
  });

  it('says a text-only record is text, not token ids, even when it names the Qwen3 tokenizer', () => {
    const seg = buildSegment({
      input_ids: [],
      generated_ids: [],
      old_logprobs: [],
      text: 'It rains.',
      transcript_index: 1,
      tool_call_id: null,
    });
    const r = buildRollout({
      tokenizer: { name: 'Qwen/Qwen3-0.6B', version: '1' },
      transcript: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: 'It rains.' },
      ],
      segments: [seg],
    });
    const d = makeDecoder(r, null);
    expect(d.source).toBe('text');
    expect(d.note).toBe('text only: the source recorded no token ids');
    expect(d.note).not.toContain('token ids:');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('decodes Qwen3 ids with the table the build makes from the real tokenizer, whole characters in runs', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return url === `/${QWEN3_TOKEN_TABLE}` ? new Response(qwenTokenTable().slice().buffer) : new Response('', { status: 404 });
    });
    const fn = qwenTokenizerOptions().queryFn;
    if (!fn) throw new Error('no queryFn');
    const tok = await (fn as () => Promise<{ decode: (ids: number[]) => string }>)();
    const r = buildRollout({ tokenizer: { name: 'Qwen/Qwen3-0.6B', version: '1' } });
    expect(isQwenTokenizer(r)).toBe(true);
    const d = makeDecoder(r, tok);
    // <|im_start|>user\n二分查找 low = mid + 1<|im_end|>
    const ids = [151644, 872, 198, 40820, 17177, 109547, 3347, 284, 5099, 488, 220, 16, 151645];
    expect(d.text(ids)).toBe('<|im_start|>user\n二分查找 low = mid + 1<|im_end|>');
    expect(d.piece(3347)).toBe(' low');
    expect(d.source).toBe('tokenizer');
    expect(asked).toEqual([`/${QWEN3_TOKEN_TABLE}`]);
  });

  it('says what failed when the table cannot be fetched', async () => {
    vi.stubGlobal('fetch', async () => new Response('', { status: 404 }));
    const fn = qwenTokenizerOptions().queryFn as () => Promise<unknown>;
    await expect(fn()).rejects.toThrow(`/${QWEN3_TOKEN_TABLE}: HTTP 404`);
  });
});
