import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../jsonl';
import { LineSpans } from './lineSpans';

const enc = new TextEncoder();
const PROPERTY = { seed: 30, numRuns: 200 };
const BOM = [0xef, 0xbb, 0xbf];

/** Lines of JSON, of not-JSON, blank, ending in CRLF or LF, perhaps unterminated, perhaps after a BOM. */
const file = fc
  .record({
    lines: fc.array(
      fc.record({
        text: fc.oneof(
          fc.constant(''),
          fc.constant('{"a":1}'),
          fc.constant('[1,2]'),
          fc.constant('  {"a":1}'),
          fc.constant('{'),
          fc.constant('}'),
          fc.string({ maxLength: 12 }),
        ),
        crlf: fc.boolean(),
      }),
      { maxLength: 12 },
    ),
    terminated: fc.boolean(),
    bom: fc.boolean(),
  })
  .map(({ lines, terminated, bom }) => {
    const text = lines.map((l, i) => l.text + (i < lines.length - 1 || terminated ? (l.crlf ? '\r\n' : '\n') : '')).join('');
    return new Uint8Array([...(bom ? BOM : []), ...enc.encode(text)]);
  });

function cut(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length] ?? 1;
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

/** What the parser makes of a line's bytes before JSON.parse: no BOM at the file's start, no CR before the newline. */
function lineJson(bytes: Uint8Array, line: number, terminated: boolean): Uint8Array {
  let b = bytes;
  if (line === 1 && BOM.every((x, i) => b[i] === x)) b = b.subarray(3);
  if (terminated && b.at(-1) === 0x0d) b = b.subarray(0, -1);
  return b;
}

describe("LineSpans: the index's byte spans, line for line the splitter's lines", () => {
  it('numbers the lines LineSplitter splits, and spans exactly the bytes each line parses from (property)', () => {
    fc.assert(
      fc.property(file, fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 5 }), (bytes, sizes) => {
        const splitter = new LineSplitter(Number.POSITIVE_INFINITY);
        const spans = new LineSpans();
        const lines: Uint8Array[] = [];
        const onLine = (b: Uint8Array) => lines.push(b);
        for (const chunk of cut(bytes, sizes)) {
          spans.push(chunk);
          splitter.push(chunk, onLine);
        }
        spans.end();
        splitter.end(onLine);
        expect(spans.bytes).toBe(bytes.length);
        // Every line with its newline is complete; an unterminated last one is a line too.
        expect(spans.completeLines + (spans.bytes > (spans.endOf(spans.completeLines) ?? 0) ? 1 : 0)).toBe(splitter.lines);
        lines.forEach((b, i) => {
          const line = i + 1;
          const { offset, length } = spans.span(line);
          expect(bytes.subarray(offset, offset + length)).toEqual(lineJson(b, line, line <= spans.completeLines));
          const json = lineJson(b, line, line <= spans.completeLines);
          const wrapped = (json[0] === 0x7b && json.at(-1) === 0x7d) || (json[0] === 0x5b && json.at(-1) === 0x5d);
          expect(spans.isJsonLine(line)).toBe(wrapped);
        });
      }),
      PROPERTY,
    );
  });

  it('gives a part read from a later line start the spans the whole read gives its lines (property)', () => {
    fc.assert(
      fc.property(file, fc.nat(), fc.integer({ min: 1, max: 20 }), (bytes, pick, size) => {
        const whole = new LineSpans();
        for (const chunk of cut(bytes, [size])) whole.push(chunk);
        whole.end();
        const line = 1 + (pick % (whole.completeLines + 1));
        const from = line === 1 ? 0 : (whole.endOf(line - 1) ?? 0);
        const part = new LineSpans(line, from);
        for (const chunk of cut(bytes.subarray(from), [size])) part.push(chunk);
        part.end();
        expect(part.bytes).toBe(whole.bytes);
        for (let l = Math.max(line, 2); l <= whole.completeLines; l++) {
          expect(part.span(l)).toEqual(whole.span(l));
          expect(part.endOf(l)).toBe(whole.endOf(l));
        }
      }),
      PROPERTY,
    );
  });
});
