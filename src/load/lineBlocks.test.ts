import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLineParser, forEachLine, type LineRun } from '../format';
import { MINIMAL_RECORD_LINE } from '../testing/builders';
import { scanLines } from '../testing/scanLines';
import { joinRuns } from './lineBlocks';

const enc = new TextEncoder();
const dec = new TextDecoder();

/** Every line of a run as [text, number], cut where `forEachLine` cuts it. */
function linesOf(run: LineRun): [string, number][] {
  const out: [string, number][] = [];
  forEachLine(run, (b, n) => out.push([dec.decode(b), n]));
  return out;
}

/** Lines without a newline in them, and the sizes of the chunks a stream hands them over in. */
const lineTexts = fc.array(
  fc.string({ unit: 'grapheme', maxLength: 30 }).map((s) => s.replaceAll('\n', ' ')),
  { minLength: 1, maxLength: 30 },
);
const chunkSizes = fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 40 });

/**
 * The lines pushed after a v1 first line, in chunks of `sizes` (the rest in one): the parser hands every
 * later line over in runs, as the load's does. The first line goes on its own, so the chunk sizes fall on
 * the lines handed over.
 */
function pushAfterV1(lines: readonly string[], sizes: readonly number[], options: Parameters<typeof createLineParser>[1]): void {
  const bytes = enc.encode(`${lines.join('\n')}\n`);
  const parser = createLineParser('f.jsonl', options);
  parser.push(enc.encode(`${MINIMAL_RECORD_LINE}\n`));
  let at = 0;
  for (const size of [...sizes, bytes.length]) {
    if (at >= bytes.length) break;
    parser.push(bytes.slice(at, at + size));
    at += size;
  }
  parser.end();
}

describe('joinRuns', () => {
  it('keeps where each line ends: the joined block cuts into the lines scanning its bytes finds', () => {
    fc.assert(
      fc.property(lineTexts, chunkSizes, fc.integer({ min: 1, max: 4 }), (lines, sizes, per) => {
        const runs: LineRun[] = [];
        pushAfterV1(lines, sizes, { onV1Lines: (r) => runs.push(r) });
        const got: [string, number][] = [];
        for (let i = 0; i < runs.length; i += per) {
          const block = joinRuns('f.jsonl', runs.slice(i, i + per));
          if (!block) continue;
          expect(block.ends).toHaveLength(block.count);
          const cut = linesOf(block);
          expect(cut).toEqual(scanLines(block));
          got.push(...cut);
        }
        expect(got).toEqual(lines.map((l, i) => [l, i + 2]));
      }),
    );
  });

  it('owning its chunks, hands over runs whose buffers may be taken at once, and copies less', () => {
    fc.assert(
      fc.property(lineTexts, chunkSizes, (lines, sizes) => {
        const runs: LineRun[] = [];
        // As a pool takes them: every buffer of a run is transferred away the moment it is handed over,
        // so a tail the splitter kept as a view of one of them would read as empty.
        const onV1Lines = (run: LineRun) => {
          const buffers = [...new Set(run.parts.map((p) => p.buffer as ArrayBuffer))];
          runs.push(structuredClone(run, { transfer: buffers }));
        };
        pushAfterV1(lines, sizes, { onV1Lines, ownsChunks: true });
        const got = runs.flatMap((r) => linesOf(r));
        expect(got).toEqual(lines.map((l, i) => [l, i + 2]));
      }),
    );
  });

  it('owning its chunks, keeps a chunk with no newline as it is, not a copy', () => {
    const runs: LineRun[] = [];
    const parser = createLineParser('f.jsonl', { onV1Lines: (r) => runs.push(r), ownsChunks: true });
    parser.push(enc.encode(`${MINIMAL_RECORD_LINE}\n`));
    const middle = enc.encode(MINIMAL_RECORD_LINE.slice(0, 20));
    parser.push(middle);
    parser.push(enc.encode(`${MINIMAL_RECORD_LINE.slice(20)}\n`));
    expect(runs).toHaveLength(1);
    expect(runs[0]?.parts[0]?.buffer).toBe(middle.buffer);
    expect(runs[0] && linesOf(runs[0])).toEqual([[MINIMAL_RECORD_LINE, 2]]);
  });
});
