import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout, buildStep, MINIMAL_RECORD_LINE } from '../testing/builders';
import { feedInChunks } from '../testing/chunks';
import { contextMessages, recordTranscript, segmentCallIds, segmentText, transcriptIndex } from './additions';
import { decodeLine, JsonlParser, type LineResult, parseLine } from './jsonl';

const enc = new TextEncoder();

function parseAll(text: string | Uint8Array, chunkSizes: number[] = []): { results: LineResult[]; lines: number } {
  return feedInChunks(new JsonlParser('f.jsonl'), typeof text === 'string' ? enc.encode(text) : text, chunkSizes);
}

describe('parseLine', () => {
  it('loads the minimal record of the spec verbatim', () => {
    const r = parseLine(MINIMAL_RECORD_LINE, 1, 'a.jsonl');
    expect(r?.kind).toBe('rollout');
    if (r?.kind !== 'rollout') return;
    expect(r.value.record).toEqual(JSON.parse(MINIMAL_RECORD_LINE));
    expect(r.value.line).toBe(1);
  });

  it('keeps unknown fields at every level', () => {
    const rec = { ...buildRollout(), custom: { a: [1, 2] }, segments: [{ ...buildRollout().segments[0], extra_seg: 'x' }] };
    const r = parseLine(JSON.stringify(rec), 3, 'a');
    expect(r?.kind === 'rollout' && r.value.record).toMatchObject({ custom: { a: [1, 2] }, segments: [{ extra_seg: 'x' }] });
  });

  it('keeps the fields adapters add as unknown fields in a v1 file, whatever their values: never an error', () => {
    // `transcript`, `source_format`, a segment's `text`, `transcript_index`, `context_messages`, `tool_call_ids`
    // are Trajscope's, not v1's (docs/adr/0004): a v1 writer may use these names for anything.
    const base = buildRollout();
    const seg = { ...base.segments[0], text: ['a'], transcript_index: -1, context_messages: 'all of it', tool_call_ids: 'c-001' };
    const rec = { ...base, transcript: 'full chat text', source_format: 3, segments: [seg] };
    const r = parseLine(JSON.stringify(rec), 1, 'a.jsonl');
    expect(r?.kind).toBe('rollout');
    expect(r?.kind === 'rollout' && r.value.record).toEqual(rec);
    // Read through the additions' accessors they are absent (malformed), so no view or check uses them.
    if (r?.kind !== 'rollout') return;
    const s0 = r.value.record.segments[0];
    if (!s0) throw new Error('segment');
    expect([recordTranscript(r.value.record), segmentText(s0), transcriptIndex(s0), contextMessages(s0)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(segmentCallIds(s0)).toEqual([s0.tool_call_id]);
  });

  it('reads null in an optional field as absent, at every level (Python writes None as null)', () => {
    const base = buildRollout({ steps: [buildStep({ tool_call_id: 'c-001' })] });
    const withNulls = {
      ...base,
      group_id: null,
      policy_version: null,
      environment_version: null,
      tokenizer: { name: 'qwen3', version: null },
      chat_template: null,
      sampling: { temperature: 1, top_p: null, top_k: null, max_new_tokens: null, seed: null, constrained: null },
      budget: null,
      task: { prompt: null },
      steps: [{ ...base.steps?.[0], args: null, observation: { text: null, status: 'ok', truncated: null }, tests: null, attempts: null }],
      grading: { verdict: null, private_tests: { passed: null }, grader: null },
      training: null,
      started_at: null,
      segments: [{ ...base.segments[0], loss_mask: null, input_tokens: null }],
    };
    const r = parseLine(JSON.stringify(withNulls), 1, 'a.jsonl');
    expect(r?.kind).toBe('rollout');
    if (r?.kind !== 'rollout') return;
    const stripped = JSON.parse(JSON.stringify(withNulls, (_k, v) => (v === null ? undefined : v)));
    expect(JSON.parse(JSON.stringify(r.value.record))).toEqual(stripped);
    // A null that means something stays: reward, attempt_id, tool_call_id, exit_code.
    const meaningful = { ...base, reward: null, attempt_id: null, segments: [{ ...base.segments[0], tool_call_id: null }] };
    const m = parseLine(JSON.stringify(meaningful), 1, 'a.jsonl');
    expect(m?.kind === 'rollout' && m.value.record).toMatchObject({ reward: null, attempt_id: null, segments: [{ tool_call_id: null }] });
  });

  it('still rejects an optional field of the wrong type, naming it', () => {
    const r = parseLine(JSON.stringify({ ...buildRollout(), sampling: { seed: 'x' } }), 4, 'a.jsonl');
    expect(r).toMatchObject({ kind: 'error', value: { line: 4, code: 'E_SCHEMA', message: expect.stringContaining('sampling.seed') } });
  });

  it('skips blank lines', () => {
    expect(parseLine('   \t', 2, 'a')).toBeNull();
    expect(parseLine('', 2, 'a')).toBeNull();
  });

  it.each([
    ['not json', /not valid JSON/],
    ['[1,2]', /JSON object, got an array/],
    ['42', /JSON object, got number/],
    ['null', /got null/],
    ['"text"', /got string/],
    // Python's NaN and Infinity are read (as strings: nonFiniteNumbers.test.ts); a line broken besides is still not JSON.
    ['{"a": NaN, }', /not valid JSON/],
    ['{"a": Infinityy}', /not valid JSON/],
  ])('reports %s as E_PARSE', (line, message) => {
    const r = parseLine(line, 7, 'a.jsonl');
    expect(r).toEqual({ kind: 'error', value: { file: 'a.jsonl', line: 7, code: 'E_PARSE', message: expect.stringMatching(message) } });
  });

  it('reports invalid UTF-8 as E_PARSE for that line', () => {
    const r = parseLine(new Uint8Array([0x7b, 0xff, 0x7d]), 4, 'a');
    expect(r?.kind === 'error' && r.value).toMatchObject({ line: 4, code: 'E_PARSE', message: 'line is not valid UTF-8' });
  });

  it.each([
    [{ ...buildRollout(), task_id: undefined }, 'task_id: required field is missing'],
    [{ ...buildRollout(), rollout_id: 7 }, 'rollout_id'],
    [{ ...buildRollout(), segments: 'none' }, 'segments'],
    [{ ...buildRollout(), termination: undefined }, 'termination: required field is missing'],
    [{ ...buildRollout(), reward: 'one' }, 'reward'],
    [
      { ...buildRollout(), segments: [{ input_ids: [1, 2.5], generated_ids: [], old_logprobs: [] }] },
      'segments[0].input_ids[1]: expected an integer, got number 2.5',
    ],
    [{ ...buildRollout(), segments: [{ input_ids: [], generated_ids: [1], old_logprobs: ['x'] }] }, 'segments[0].old_logprobs[0]'],
    [
      { ...buildRollout(), segments: [{ input_ids: [], generated_ids: [1], old_logprobs: [-1], loss_mask: [2] }] },
      'segments[0].loss_mask[0]: expected 0 or 1',
    ],
  ])('reports a missing or mistyped field as E_SCHEMA naming it (%#)', (rec, field) => {
    const r = parseLine(JSON.stringify(rec), 2, 'a');
    expect(r?.kind).toBe('error');
    if (r?.kind !== 'error') return;
    expect(r.value.code).toBe('E_SCHEMA');
    expect(r.value.message).toContain(field);
  });

  it('accepts a missing reward (reported later as E_REWARD_MISSING, not E_SCHEMA)', () => {
    const { reward: _r, ...rest } = buildRollout();
    expect(parseLine(JSON.stringify(rest), 1, 'a')?.kind).toBe('rollout');
  });
});

describe('JsonlParser', () => {
  it('keeps every good line around broken ones, with 1-based line numbers', () => {
    const good = JSON.stringify(buildRollout());
    const text = [good, '{broken', '', good.replace('"r-1"', '"r-2"'), '[]', good.replace('"r-1"', '"r-3"')].join('\n');
    const { results, lines } = parseAll(text);
    expect(lines).toBe(6);
    expect(results.map((r) => [r.kind, r.value.line])).toEqual([
      ['rollout', 1],
      ['error', 2],
      ['rollout', 4],
      ['error', 5],
      ['rollout', 6],
    ]);
  });

  it('handles CRLF line ends, a BOM and a last line without newline', () => {
    const good = JSON.stringify(buildRollout());
    const { results } = parseAll(`\uFEFF${good}\r\n${good}`);
    expect(results.map((r) => r.kind)).toEqual(['rollout', 'rollout']);
  });

  it('gives the same results whatever the chunk boundaries, even inside a multi-byte character', () => {
    const rec = buildRollout({ task: { prompt: 'найди ошибку 🐛 in 二分查找' } });
    const text = `${JSON.stringify(rec)}\n{bad\n${JSON.stringify(rec)}\n`;
    const whole = parseAll(text).results;
    for (let size = 1; size < 40; size += 3) {
      const sizes = Array.from({ length: 2000 }, () => size);
      expect(parseAll(text, sizes).results).toEqual(whole);
    }
  });

  it('does not alias a caller buffer that is reused between chunks', () => {
    const good = enc.encode(JSON.stringify(buildRollout()));
    const parser = new JsonlParser('f');
    const buf = new Uint8Array(good.length);
    buf.set(good);
    parser.push(buf.subarray(0, 10));
    buf.fill(0x20);
    buf.set(good.subarray(10), 10);
    const out = [...parser.push(buf.subarray(10)), ...parser.end()];
    expect(out.map((r) => r.kind)).toEqual(['rollout']);
  });
});

describe('JsonlParser properties', () => {
  const chunking = fc.array(fc.integer({ min: 1, max: 64 }), { maxLength: 200 });

  it('never throws on arbitrary bytes and arbitrary chunk boundaries', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), chunking, (bytes, sizes) => {
        const { results, lines } = parseAll(bytes, sizes);
        for (const r of results) expect(r.value.line).toBeLessThanOrEqual(lines);
      }),
    );
  });

  it('never loses a valid line placed among invalid ones', () => {
    const junk = fc.oneof(
      fc.string().filter((s) => !s.includes('\n')),
      fc.uint8Array({ maxLength: 50 }).map((b) => Array.from(b, (x) => (x === 10 ? 32 : x))),
    );
    const valid = fc.integer({ min: 0, max: 1_000_000 }).map((n) => JSON.stringify(buildRollout({ rollout_id: `r-${n}` })));
    const line = fc.oneof(
      valid.map((v) => ({ valid: true as const, bytes: enc.encode(v) })),
      junk.map((j) => ({ valid: false as const, bytes: typeof j === 'string' ? enc.encode(j) : new Uint8Array(j) })),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), chunking, (lines, sizes) => {
        const parts: number[] = [];
        lines.forEach((l) => {
          parts.push(...l.bytes, 10);
        });
        const { results } = parseAll(new Uint8Array(parts), sizes);
        const loaded = new Map(results.filter((r) => r.kind === 'rollout').map((r) => [r.value.line, r]));
        lines.forEach((l, i) => {
          if (l.valid) expect(loaded.get(i + 1)?.kind).toBe('rollout');
        });
      }),
    );
  });
});

describe('decodeLine', () => {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const strictOrNull = (b: Uint8Array) => {
    try {
      return strict.decode(b);
    } catch {
      return null;
    }
  };
  // Random bytes, mixed with pieces that matter: a real U+FFFD (EF BF BD), a lone continuation byte, a
  // truncated sequence, two- and four-byte characters, a BOM.
  const piece = fc.oneof(
    fc.uint8Array({ maxLength: 8 }),
    fc
      .constantFrom([0xef, 0xbf, 0xbd], [0x80], [0xe6, 0x97], [0xc3, 0xa9], [0xf0, 0x9f, 0x98, 0x80], [0xef, 0xbb, 0xbf])
      .map((a) => Uint8Array.from(a)),
    fc.string().map((s) => enc.encode(s)),
  );
  it('is the strict decoder: the text of valid UTF-8, null for anything else', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const bytes = Uint8Array.from(pieces.flatMap((p) => [...p]));
        expect(decodeLine(bytes)).toBe(strictOrNull(bytes));
      }),
      { numRuns: 2000 },
    );
  });
  it('keeps a U+FFFD the line really holds, and refuses a bad byte beside one', () => {
    expect(decodeLine(Uint8Array.from([0x61, 0xef, 0xbf, 0xbd]))).toBe('a\uFFFD');
    expect(decodeLine(Uint8Array.from([0xef, 0xbf, 0xbd, 0xff]))).toBeNull();
    expect(decodeLine(Uint8Array.from([0x61, 0xff]))).toBeNull();
  });
});
