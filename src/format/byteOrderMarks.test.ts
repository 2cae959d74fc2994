import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { feedInChunks } from '../testing/chunks';
import { FIXTURES, parseText } from './adapters/fixtures';
import { JsonlParser, parseLine } from './jsonl';

/*
 * A UTF-8 byte-order mark may open any line, not only the file's first: files joined with `cat` (a run's
 * shards, a tool that writes each part with a BOM) carry one per part (issue 24). Such a line is JSON.
 */
const BOM = '\uFEFF';
const enc = new TextEncoder();
const v1 = (i: number) => JSON.stringify(buildRollout({ rollout_id: `r-${i}` }));

describe('a byte-order mark at the start of a line', () => {
  it('parseLine reads it on any line, also as bytes', () => {
    for (const line of [1, 2, 40]) {
      expect(parseLine(`${BOM}${v1(line)}`, line, 'a.jsonl')?.kind).toBe('rollout');
      expect(parseLine(enc.encode(`${BOM}${v1(line)}`), line, 'a.jsonl')?.kind).toBe('rollout');
    }
    // A line of only a BOM is blank.
    expect(parseLine(BOM, 3, 'a.jsonl')).toBeNull();
  });

  it('JsonlParser and createLineParser read a file joined from parts that each start with one, cut anywhere', () => {
    const part = (from: number) => `${BOM}${v1(from)}\r\n${v1(from + 1)}\r\n`;
    const text = part(1) + part(3) + part(5);
    for (const sizes of [[], [1, 2, 3], [5]]) {
      const jsonl = feedInChunks(new JsonlParser('all.jsonl'), enc.encode(text), sizes);
      expect(jsonl.results.map((r) => [r.kind, r.value.line])).toEqual([1, 2, 3, 4, 5, 6].map((l) => ['rollout', l]));
      const mine = parseText(text, 'all.jsonl', {}, sizes);
      expect(mine.results).toEqual(jsonl.results);
      expect(mine.unsupported).toBeNull();
    }
  });

  it('on a converted format too (chat lines), and before a pretty-printed document that is not on line 1', () => {
    const chat = FIXTURES.chat.text.split('\n')[0] ?? '';
    const lines = parseText(`${chat}\n${BOM}${chat}\n`, 'chat.jsonl');
    expect(lines.format).toBe('openai-chat');
    expect(lines.results.map((r) => [r.kind, r.value.line])).toEqual([
      ['rollout', 1],
      ['rollout', 2],
    ]);
    const doc = parseText(`\n\n${BOM}${JSON.stringify(JSON.parse(chat), null, 2)}\n`, 'chat.json');
    expect(doc.results.map((r) => [r.kind, r.value.line])).toEqual([['rollout', 3]]);
  });

  it('a BOM inside a line is not whitespace there: still not JSON', () => {
    const r = parseLine(`{${BOM}"a": 1}`, 1, 'a.jsonl');
    expect(r?.kind === 'error' && r.value.message).toMatch(/^not valid JSON/);
  });
});
