import { describe, expect, it } from 'vitest';
import { buildRollout } from '../../testing/builders';
import { feedInChunks } from '../../testing/chunks';
import { DEFAULT_MAX_LINE_BYTES, overlongLineError } from '../jsonl';
import { FIXTURES, parseText } from './fixtures';
import { createLineParser, type LineParserOptions } from './lineParser';

/*
 * "not JSON" is said of a file (its `unsupported` line) and of a line (E_PARSE "not valid JSON") only when
 * it is not JSON (issue 24): a JSON Lines file whose every line parses is read, whatever its name, line
 * ends or line lengths, and a line refused for another reason (too long, too deep, not UTF-8) says that.
 */
const enc = new TextEncoder();
const v1 = (i: number, extra?: Record<string, unknown>) =>
  JSON.stringify(buildRollout({ rollout_id: `r-${i}`, ...(extra ? { extra } : {}) }));

/** Bytes through createLineParser (options the text helper does not take: the line limit; bytes that are not UTF-8). */
function readBytes(bytes: Uint8Array, name: string, options: LineParserOptions, sizes: number[] = []) {
  const parser = createLineParser(name, options);
  const { results } = feedInChunks(parser, bytes, sizes);
  return { results, unsupported: parser.unsupported };
}

function kinds(results: ReturnType<typeof parseText>['results']): [string, number][] {
  return results.map((r) => [r.kind, r.value.line]);
}

describe('JSON Lines files that are JSON are read', () => {
  it('a line of a few MB parses with the default limit; the limit (256 MiB) is named in the error of a longer one', () => {
    const big = v1(1, { pad: 'x'.repeat(5 * 2 ** 20) });
    const { results, unsupported } = parseText(`${big}\n${v1(2)}\n`, 'big.jsonl', {}, [1 << 16]);
    expect(unsupported).toBeNull();
    expect(kinds(results)).toEqual([
      ['rollout', 1],
      ['rollout', 2],
    ]);
    expect(DEFAULT_MAX_LINE_BYTES).toBe(256 * 2 ** 20);
    expect(overlongLineError(1, 'big.jsonl', DEFAULT_MAX_LINE_BYTES).value).toMatchObject({
      code: 'E_PARSE',
      message: 'line is longer than 256 MiB (the line limit; skipped unread)',
    });
  });

  it('a line of exactly the limit parses; one byte more is E_PARSE naming the limit, and the other lines load', () => {
    const line = v1(1, { pad: 'y'.repeat(3000) });
    const limit = enc.encode(line).length;
    const at = readBytes(enc.encode(`${line}\n${v1(2)}\n`), 'f.jsonl', { maxLineBytes: limit }, [100]);
    expect(kinds(at.results)).toEqual([
      ['rollout', 1],
      ['rollout', 2],
    ]);
    const over = readBytes(enc.encode(`${line}\n${v1(2)}\n`), 'f.jsonl', { maxLineBytes: limit - 1 }, [100]);
    expect(over.results.map((r) => (r.kind === 'error' ? r.value.message : r.kind))).toEqual([
      `line is longer than ${(limit - 1).toLocaleString('en-US')} bytes (the line limit; skipped unread)`,
      'rollout',
    ]);
  });

  it.each([
    ['a .json name', 'run.json', '\n'],
    ['CRLF line ends', 'run.jsonl', '\r\n'],
    ['both', 'run.json', '\r\n'],
  ])('%s: every line is its own record', (_, name, eol) => {
    const text = [v1(1), v1(2), v1(3)].join(eol) + eol;
    for (const sizes of [[], [3, 1]]) {
      const { results, format, unsupported } = parseText(text, name, {}, sizes);
      expect(unsupported).toBeNull();
      expect(format).toBe('v1');
      expect(kinds(results)).toEqual([
        ['rollout', 1],
        ['rollout', 2],
        ['rollout', 3],
      ]);
    }
  });

  it('a converted format named .json, whose first line starts like a document ("{" then a key): read as lines', () => {
    const [a = '', b = ''] = FIXTURES.chat.text.split('\n');
    const { results, format, unsupported } = parseText(`${a}\r\n${b}\r\n`, 'chat.json');
    expect(unsupported).toBeNull();
    expect(format).toBe('openai-chat');
    expect(kinds(results)).toEqual([
      ['rollout', 1],
      ['rollout', 2],
    ]);
  });

  it('a pretty-printed document with CRLF line ends is read whole', () => {
    const doc = JSON.stringify(buildRollout(), null, 2).replaceAll('\n', '\r\n');
    const { results, unsupported } = parseText(`${doc}\r\n`, 'one.json');
    expect(unsupported).toBeNull();
    expect(kinds(results)).toEqual([['rollout', 1]]);
  });
});

describe('what a file of no readable line is called', () => {
  it('a line nested past the depth limit is JSON: the file is not called "not JSON", the line names the limit', () => {
    const deep = `{"a":${'['.repeat(300)}${']'.repeat(300)}}`;
    const { results, unsupported } = parseText(`${deep}\n`, 'deep.jsonl');
    expect(results).toEqual([]);
    expect(unsupported).toMatch(/^JSON nested deeper than 256 levels, the limit \(line 1\) \(1 line\): not a format Trajscope reads/);
    const withRecord = parseText(`${deep}\n${v1(2)}\n`, 'deep.jsonl');
    expect(withRecord.results.map((r) => (r.kind === 'error' ? r.value.message : r.kind))).toEqual([
      'nested deeper than 256 levels (the limit for one value)',
      'rollout',
    ]);
  });

  it('a line that is not UTF-8 is called so', () => {
    const latin1 = new Uint8Array([...enc.encode('{"a": "caf'), 0xe9, ...enc.encode('"}\n')]);
    const { results, unsupported } = readBytes(latin1, 'latin.jsonl', {});
    expect(results).toEqual([]);
    expect(unsupported).toMatch(/^not UTF-8 text \(line 1\) \(1 line\): not a format Trajscope reads/);
  });

  it('only a line that is not JSON makes a file "not JSON"', () => {
    const { unsupported } = parseText('hello world\n', 'notes.jsonl');
    expect(unsupported).toMatch(/^not JSON \(line 1 starts "hello world"\)/);
  });
});
