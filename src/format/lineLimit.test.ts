import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { createLineParser } from './adapters';
import { forEachLine, type LineResult, type LineRun, LineSplitter, OVERLONG_LINE, parseLine } from './jsonl';

const enc = new TextEncoder();
const PROPERTY = { seed: 18, numRuns: 80 };

/** Cuts bytes into chunks of the given sizes (cycled), as a stream would deliver them. */
function chunked(bytes: Uint8Array, sizes: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = Math.max(1, sizes[i % sizes.length] ?? 1);
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

describe('the line limit (issue 18: a multi-GB line must not grow memory)', () => {
  it('splits like an unlimited splitter, except that every line past the limit is OVERLONG_LINE, never held', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (lengths, limit, sizes, lastNewline) => {
          const lines = lengths.map((n, i) => String.fromCharCode(97 + (i % 26)).repeat(n));
          const text = lines.join('\n') + (lastNewline ? '\n' : '');
          const splitter = new LineSplitter(limit);
          const seen: [string | null, number][] = [];
          const onLine = (b: Uint8Array, line: number) => seen.push([b === OVERLONG_LINE ? null : new TextDecoder().decode(b), line]);
          for (const chunk of chunked(enc.encode(text), sizes)) {
            splitter.push(chunk, onLine);
            expect(splitter.pendingBytes).toBeLessThanOrEqual(limit);
          }
          splitter.end(onLine);
          const expected = lines.map((l, i): [string | null, number] => [l.length > limit ? null : l, i + 1]);
          // An empty unterminated last line is no line.
          if (!lastNewline && lines[lines.length - 1] === '') expected.pop();
          expect(seen).toEqual(expected);
        },
      ),
      PROPERTY,
    );
  });

  it('reports each overlong line once, in line order, and loads every other line, also when runs go to a pool', () => {
    const good = (i: number) => JSON.stringify(buildRollout({ rollout_id: `r-${i}` }));
    const limit = good(10).length + 5;
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: 1, maxLength: 25 }),
        fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (long, sizes, pooled) => {
          const lines = long.map((l, i) => (l ? `{"pad":"${'x'.repeat(limit)}"}` : good(i)));
          const runs: LineRun[] = [];
          const parser = createLineParser('f.jsonl', {
            maxLineBytes: limit,
            ...(pooled ? { onV1Lines: (r: LineRun) => runs.push(r) } : {}),
          });
          const results: LineResult[] = [];
          const take = (rs: LineResult[]) => {
            results.push(...rs);
            for (const run of runs.splice(0)) forEachLine(run, (b, line) => results.push(parseLine(b, line, 'f.jsonl') as LineResult));
          };
          for (const chunk of chunked(enc.encode(`${lines.join('\n')}\n`), sizes)) take(parser.push(chunk));
          take(parser.end());
          const byLine = results
            .map((r) => [r.value.line, r.kind === 'error' ? r.value.message : 'ok'])
            .sort((a, b) => Number(a[0]) - Number(b[0]));
          expect(byLine).toEqual(
            lines.map((_, i) => [
              i + 1,
              long[i] ? `line is longer than ${limit.toLocaleString('en-US')} bytes (the line limit; skipped unread)` : 'ok',
            ]),
          );
          expect(parser.lines).toBe(lines.length);
        },
      ),
      PROPERTY,
    );
  });
});
