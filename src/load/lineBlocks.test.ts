import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLineParser, forEachLine, type LineRun } from '../format';
import { MINIMAL_RECORD_LINE } from '../testing/builders';
import { joinRuns } from './lineBlocks';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Every line of a run as [text, number], cut where `forEachLine` cuts it. */
function linesOf(run: LineRun): [string, number][] {
  const out: [string, number][] = [];
  forEachLine(run, (b, n) => out.push([dec.decode(b), n]));
  return out;
}

describe('joinRuns', () => {
  it('keeps where each line ends: the joined block cuts into the lines scanning its bytes finds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replaceAll('\n', ' ')),
          { minLength: 1, maxLength: 30 },
        ),
        fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        (lines, sizes, per) => {
          // A v1 first line: the parser then hands every later line over in runs, as the load's does.
          const bytes = enc.encode(`${MINIMAL_RECORD_LINE}\n${lines.join('\n')}\n`);
          const runs: LineRun[] = [];
          const parser = createLineParser('f.jsonl', { onV1Lines: (r) => runs.push(r) });
          let at = 0;
          for (const size of [...sizes, bytes.length]) {
            if (at >= bytes.length) break;
            parser.push(bytes.slice(at, at + size));
            at += size;
          }
          parser.end();
          const got: [string, number][] = [];
          for (let i = 0; i < runs.length; i += per) {
            const block = joinRuns('f.jsonl', runs.slice(i, i + per));
            if (!block) continue;
            expect(block.ends).toHaveLength(block.count);
            const cut = linesOf(block);
            expect(cut).toEqual(linesOf({ ...block, ends: undefined }));
            got.push(...cut);
          }
          expect(got).toEqual(lines.map((l, i) => [l, i + 2]));
        },
      ),
    );
  });

  it('scans a block when one of its runs does not say where its lines end', () => {
    const a: LineRun = { parts: [enc.encode('a\nbb\n')], firstLine: 1, count: 2, ends: [1, 4] };
    const b: LineRun = { parts: [enc.encode('ccc\n')], firstLine: 3, count: 1 };
    const block = joinRuns('f.jsonl', [a, b]);
    expect(block?.ends).toBeUndefined();
    expect(block && linesOf(block)).toEqual([
      ['a', 1],
      ['bb', 2],
      ['ccc', 3],
    ]);
  });
});
