import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { buildRollout, MINIMAL_RECORD_LINE, toJsonl } from '../../testing/builders';
import { feedInChunks } from '../../testing/chunks';
import { scanLines } from '../../testing/scanLines';
import { forEachLine, JsonlParser, type LineResult, type LineRun, parseLine } from '../jsonl';
import { FIXTURES, type FixtureName, parseText } from './fixtures';
import { createLineParser } from './lineParser';

const enc = new TextEncoder();
const dec = new TextDecoder();

function jsonlParse(bytes: Uint8Array, sizes: readonly number[]): { results: LineResult[]; lines: number } {
  return feedInChunks(new JsonlParser('f.jsonl'), bytes, sizes);
}

describe('createLineParser told the file is v1 (from: v1)', () => {
  const lines = [
    toJsonl([buildRollout({ rollout_id: 'a' })]).trim(),
    '',
    '{"rollout_id": 3}',
    'not json',
    toJsonl([buildRollout({ rollout_id: 'b', reward: Number.NaN })])
      .trim()
      .replace('null', 'NaN'),
    toJsonl([buildRollout({ rollout_id: 'c' })]).trim(),
  ];
  const read = (text: string, from: 'v1' | 'auto') => {
    const p = createLineParser('f.jsonl', { from });
    return [...p.push(enc.encode(text)), ...p.end()];
  };

  it('reads each line as it reads it without being told, record or error, from any first line', () => {
    for (let first = 0; first < lines.length; first++) {
      const text = `${lines.slice(first).join('\n')}\n`;
      expect(read(text, 'v1')).toEqual(read(text, 'auto'));
    }
  });

  // Issue 25: a rollout of a run is read from its indexed range by a new parser, so its line is always the first.
  it('parses a first line that is a record once', () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(read(`${lines[0]}\n`, 'v1').map((r) => r.kind)).toEqual(['rollout']);
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
  });
});

describe('createLineParser on a later part of a v1 file (continuesV1)', () => {
  const chat = JSON.stringify({
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
    ],
  });
  const read = (text: string, continuesV1: boolean) => {
    const p = createLineParser('f.jsonl', { continuesV1 });
    const results = [...p.push(enc.encode(text)), ...p.end()];
    return { unsupported: p.unsupported, results: results.map((r) => [r.kind, r.value.line, r.kind === 'error' ? r.value.code : '']) };
  };

  it('reads the part as the whole file reads those lines', () => {
    // The same lines after a v1 first line, in the whole file: one line later.
    const lines = ['not json', '{"a": 1}', chat, buildRollout({ rollout_id: 'r-9' })];
    const whole = parseText(toJsonl([MINIMAL_RECORD_LINE, ...lines]), 'f.jsonl').results.slice(1);
    const part = read(toJsonl(lines), true);
    expect(part.unsupported).toBeNull();
    expect(part.results).toEqual(whole.map((r) => [r.kind, r.value.line - 1, r.kind === 'error' ? r.value.code : '']));
    expect(part.results.map(([kind]) => kind)).toEqual(['error', 'error', 'error', 'rollout']);
  });

  it('differs from a fresh read, which would call a part of bad lines a file of no known format and read a chat line as chat', () => {
    expect(read(toJsonl(['not json', '{"a": 1}']), false)).toMatchObject({
      unsupported: expect.stringMatching(/not a format/),
      results: [],
    });
    expect(read(toJsonl(['not json', '{"a": 1}']), true)).toEqual({
      unsupported: null,
      results: [
        ['error', 1, 'E_PARSE'],
        ['error', 2, 'E_SCHEMA'],
      ],
    });
    expect(read(toJsonl([chat]), false).results).toEqual([['rollout', 1, '']]);
    expect(read(toJsonl([chat]), true).results).toEqual([['error', 1, 'E_SCHEMA']]);
  });
});

describe('createLineParser on v1 files', () => {
  const mixed = toJsonl([
    MINIMAL_RECORD_LINE,
    '{"task_id": "t", "rollout_id": ',
    '',
    buildRollout({ rollout_id: 'r-2' }),
    '[1, 2, 3]',
    '\uFFFF',
    buildRollout(),
  ]);

  it('gives exactly what JsonlParser gives: same results, same line numbers, same line count', () => {
    const mine = parseText(mixed, 'f.jsonl');
    expect(mine.format).toBe('v1');
    expect(mine).toMatchObject(jsonlParse(enc.encode(mixed), []));
  });

  it('stays identical to JsonlParser for any mix of valid and invalid lines, cut anywhere (a file with no record at all is of no known format)', () => {
    const line = fc.oneof(
      fc.integer({ min: 0, max: 99 }).map((n) => JSON.stringify(buildRollout({ rollout_id: `r-${n}` }))),
      fc.string().filter((s) => !s.includes('\n')),
      fc.constantFrom('', '[]', '{}', '{"segments": []}', '  ', '\uFEFF{}'),
    );
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 80 }),
        (lines, sizes) => {
          const text = lines.join('\n');
          // A first line that opens a JSON document is read whole, which JsonlParser does not do.
          fc.pre(
            !/^\s*[[{]\s*$/.test(lines.find((l) => l.trim() !== '') ?? '') && !/^\s*\[/.test(lines.find((l) => l.trim() !== '') ?? ''),
          );
          const mine = parseText(text, 'f.jsonl', {}, sizes);
          const theirs = jsonlParse(enc.encode(text), sizes);
          expect(mine.lines).toBe(theirs.lines);
          if (theirs.results.some((r) => r.kind === 'rollout')) {
            expect(mine.results).toEqual(theirs.results);
            expect(mine.unsupported).toBeNull();
          } else {
            // Not one v1 record: not a broken v1 file, so one line says what it is instead of an error per line.
            expect(mine.results).toEqual([]);
            expect(mine.unsupported !== null).toBe(theirs.results.length > 0);
          }
        },
      ),
    );
  });
});

describe('createLineParser handing v1 lines over (onV1Lines)', () => {
  it('hands over every line after the first, in runs that parse to exactly what JsonlParser gives', () => {
    const line = fc.oneof(
      fc.integer({ min: 0, max: 99 }).map((n) => JSON.stringify(buildRollout({ rollout_id: `r-${n}` }))),
      fc.string().filter((s) => !s.includes('\n')),
      fc.constantFrom('', '{}', '\r', '\uFEFF{}'),
    );
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 80 }),
        fc.boolean(),
        (lines, sizes, lastNewline) => {
          const text = `${JSON.stringify(buildRollout({ rollout_id: 'first' }))}\n${lines.join('\n')}${lastNewline ? '\n' : ''}`;
          const bytes = enc.encode(text);
          const runs: LineRun[] = [];
          const parser = createLineParser('f.jsonl', { onV1Lines: (run) => runs.push(run) });
          const results: LineResult[] = [];
          let at = 0;
          for (const size of [...sizes, bytes.length]) {
            if (at >= bytes.length) break;
            // Fresh chunks, as a stream reader gives them: a run may keep a view of one.
            results.push(...parser.push(bytes.slice(at, at + size)));
            at += size;
          }
          results.push(...parser.end());
          expect(results).toHaveLength(1);
          let next = 2;
          for (const run of runs) {
            expect(run.firstLine).toBe(next);
            next += run.count;
            // Each run says where its lines end, and cutting there gives what scanning its bytes gives.
            expect(run.ends).toHaveLength(run.count);
            const cut: [string, number][] = [];
            forEachLine(run, (b, n) => cut.push([dec.decode(b), n]));
            expect(cut).toEqual(scanLines(run));
            forEachLine(run, (b, n) => {
              const r = parseLine(b, n, 'f.jsonl');
              if (r) results.push(r);
            });
          }
          const theirs = jsonlParse(bytes, []);
          expect(results).toEqual(theirs.results);
          expect(parser.lines).toBe(theirs.lines);
          expect(next - 1).toBe(theirs.lines);
        },
      ),
    );
  });
});

describe('createLineParser on other formats', () => {
  const all: FixtureName[] = [
    'verifiersResults',
    'verifiersOldResults',
    'traces',
    'rllmEpisode',
    'rllmEpisodes',
    'sweTraj',
    'sweRetryTraj',
    'chat',
  ];

  it.each(all)('%s: the same results whatever the chunk boundaries', (name) => {
    const { text, name: file } = FIXTURES[name];
    const whole = parseText(text, file);
    expect(whole.results.length).toBeGreaterThan(0);
    expect(whole.results.every((r) => r.kind === 'rollout')).toBe(true);
    for (const size of [1, 7, 64, 1000]) {
      expect(
        parseText(
          text,
          file,
          {},
          Array.from({ length: text.length }, () => size),
        ),
      ).toEqual(whole);
    }
  });

  it('counts lines as JsonlParser does, for JSONL and whole documents alike', () => {
    for (const name of all) {
      const { text, name: file } = FIXTURES[name];
      expect(parseText(text, file).lines).toBe(jsonlParse(enc.encode(text), []).lines);
    }
  });

  it('waits for the first JSON object to detect: earlier garbage is E_PARSE, later lines are converted', () => {
    const chat = FIXTURES.chat.text.split('\n')[0];
    const { results, format } = parseText(`not json\n\n[1]\n${chat}\n{broken\n${chat}\n`, 'c.jsonl');
    expect(format).toBe('openai-chat');
    expect(results.map((r) => [r.kind, r.value.line, r.kind === 'error' ? r.value.code : ''])).toEqual([
      ['error', 1, 'E_PARSE'],
      ['error', 3, 'E_PARSE'],
      ['rollout', 4, ''],
      ['error', 5, 'E_PARSE'],
      ['rollout', 6, ''],
    ]);
  });

  it('options.from overrides detection (a v1 line read as chat is an error naming chat fields)', () => {
    const { results, format } = parseText(MINIMAL_RECORD_LINE, 'x.jsonl', { from: 'openai-chat' });
    expect(format).toBe('openai-chat');
    expect(results[0]?.value).toMatchObject({ code: 'E_SCHEMA', message: expect.stringContaining('messages: expected an array') });
  });

  it('reads invalid UTF-8 in a converted file as E_PARSE for that line only', () => {
    const chat = enc.encode(`${FIXTURES.chat.text.split('\n')[0]}\n`);
    const parser = createLineParser('c.jsonl');
    const results = [...parser.push(new Uint8Array([...chat, 0x7b, 0xff, 0x7d, 0x0a, ...chat])), ...parser.end()];
    expect(results.map((r) => [r.kind, r.value.line, r.kind === 'error' && r.value.message])).toEqual([
      ['rollout', 1, false],
      ['error', 2, 'line is not valid UTF-8'],
      ['rollout', 3, false],
    ]);
  });
});

describe('createLineParser on whole JSON documents', () => {
  const doc = (value: unknown) => JSON.stringify(value, null, 2);
  const chat = JSON.parse(FIXTURES.chat.text.split('\n')[0] ?? '');

  it('reads a pretty-printed document after blank lines, placing records on their true line', () => {
    const { results, format, lines } = parseText(`\n\n${doc([chat, chat])}\n`, 'chats.json');
    expect(format).toBe('openai-chat');
    expect(lines).toBe(3 + doc([chat, chat]).split('\n').length - 1);
    const first = doc([chat, chat]).split('\n').indexOf('  {') + 3;
    expect(results.map((r) => r.value.line)[0]).toBe(first);
    expect(results).toHaveLength(2);
  });

  it('reads a pretty-printed v1 record, and a UTF-8 BOM before it', () => {
    const { results, format } = parseText(`\uFEFF${doc(buildRollout())}`, 'one.json');
    expect(format).toBe('v1');
    expect(results.map((r) => [r.kind, r.value.line])).toEqual([['rollout', 1]]);
  });

  it('reports a broken document as one E_PARSE on the line where it breaks', () => {
    const text = `{\n  "trajectory": [],\n  "info": {,\n}\n`;
    const { results } = parseText(text, 'x.traj');
    expect(results).toEqual([
      { kind: 'error', value: { file: 'x.traj', line: 3, code: 'E_PARSE', message: expect.stringContaining('not valid JSON') } },
    ]);
  });

  it('reads a .json file that is really JSONL line by line, even when its first line is broken', () => {
    const line = FIXTURES.chat.text.split('\n')[0];
    const { results } = parseText(`{"messages": [\n${line}\n${line}\n`, 'chats.json');
    expect(results.map((r) => [r.kind, r.value.line])).toEqual([
      ['error', 1],
      ['rollout', 2],
      ['rollout', 3],
    ]);
  });

  it('reads a JSONL file whose first line is a lone bracket as lines: that line is E_PARSE, the others load', () => {
    // A lone `{` or `[` opens a pretty-printed document, unless the lines after it are records on their own.
    for (const first of ['{', '[']) {
      const text = toJsonl([first, buildRollout({ rollout_id: 'r-1' }), '', buildRollout({ rollout_id: 'r-2' })]);
      for (const sizes of [[], [3], [7, 11]]) {
        const { results, format } = parseText(text, 'f.jsonl', {}, sizes);
        expect(format).toBe('v1');
        expect(results.map((r) => [r.kind, r.value.line])).toEqual([
          ['error', 1],
          ['rollout', 2],
          ['rollout', 4],
        ]);
      }
      // Past the buffering limit the same holds: nothing is skipped.
      const big = toJsonl([first, ...Array.from({ length: 30 }, (_, i) => buildRollout({ rollout_id: `r-${i}` }))]);
      const limited = parseText(big, 'f.jsonl', { wholeFileLimit: 2000 });
      expect(limited.results.filter((r) => r.kind === 'rollout')).toHaveLength(30);
      expect(limited.results[0]?.value).toMatchObject({ line: 1, code: 'E_PARSE' });
    }
  });

  it('still reports a broken lone-bracket document as one E_PARSE, not one per line', () => {
    const text = `[
  {"role": "user", "content": "hi"},
  {"role": "assistant"
]
`;
    const { results } = parseText(text, 'x.json');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ kind: 'error', value: { code: 'E_PARSE' } });
  });

  it('emits a document as soon as its closing bracket arrives (a followed file need not end), and reads documents one after another', () => {
    const traj = JSON.parse(FIXTURES.sweTraj.text);
    const parser = createLineParser('live.traj');
    const text = doc(traj);
    const firstPart = enc.encode(text.slice(0, text.length - 1));
    expect(parser.push(firstPart)).toEqual([]);
    expect(parser.pendingBytes).toBe(firstPart.length);
    expect(parser.format).toBeNull();
    const done = parser.push(enc.encode('}\n'));
    expect(done.map((r) => [r.kind, r.value.line])).toEqual([['rollout', 1]]);
    expect(parser.pendingBytes).toBe(0);
    expect(parser.format).toBe('swe-agent-traj');
    const second = parser.push(enc.encode(`${text}\n`));
    expect(second.map((r) => [r.kind, r.value.line])).toEqual([['rollout', text.split('\n').length + 1]]);
    expect(parser.end()).toEqual([]);
  });

  it('counts a partial last line as pending, as JsonlParser does', () => {
    const parser = createLineParser('c.jsonl');
    parser.push(enc.encode('{"messages": ['));
    expect(parser.pendingBytes).toBe(14);
  });

  it('stops buffering past the limit: one E_PARSE for a document, line-by-line reading for a JSONL file', () => {
    const big = doc({ trajectory: [], info: {}, history: Array.from({ length: 50 }, () => ({ role: 'user', content: 'x'.repeat(40) })) });
    const tooBig = parseText(big, 'x.traj', { wholeFileLimit: 1000 });
    expect(tooBig.results).toEqual([
      { kind: 'error', value: expect.objectContaining({ line: 1, code: 'E_PARSE', message: expect.stringContaining('read whole') }) },
    ]);
    expect(tooBig.lines).toBe(big.split('\n').length);
    const line = FIXTURES.chat.text.split('\n')[0];
    const jsonl = `{"broken\n${Array.from({ length: 20 }, () => line).join('\n')}\n`;
    const replayed = parseText(jsonl, 'chats.json', { wholeFileLimit: 1000 });
    expect(replayed.results.filter((r) => r.kind === 'rollout')).toHaveLength(20);
    expect(replayed.results[0]?.value).toMatchObject({ line: 1, code: 'E_PARSE' });
  });
});
