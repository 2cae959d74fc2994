import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout, MINIMAL_RECORD_LINE, toJsonl } from '../../testing/builders';
import { chunkedFile } from '../../testing/chunks';
import { expandRollout } from '../compact';
import { lintSources } from '../lintSources';
import { fileSource } from '../sources';
import { createWorkerPool, handleLinesRequest, type LinesWorker } from './pool';
import type { FromLinesWorker, ToLinesWorker } from './protocol';

/**
 * A lines worker as the browser runs one, minus the thread: messages cross by structuredClone with the
 * same transfer lists (so a buffer used after it was given away reads as detached, as it would there),
 * and each reply comes after a random delay, so blocks finish out of order.
 */
function fakeWorker(random: () => number, log: { blocks: number }): LinesWorker {
  const worker: LinesWorker = {
    onmessage: null,
    onerror: null,
    postMessage(message: ToLinesWorker, transfer: Transferable[]) {
      const received = structuredClone(message, { transfer });
      log.blocks++;
      setTimeout(
        () => {
          const { reply, transfer: back } = handleLinesRequest(received);
          const data = structuredClone(reply, { transfer: back });
          worker.onmessage?.(new MessageEvent<FromLinesWorker>('message', { data }));
        },
        Math.floor(random() * 5),
      );
    },
    terminate() {},
  };
  return worker;
}

const big = (id: string) => {
  const ids = Array.from({ length: 3000 }, (_, i) => (i * 7919) % 151_000);
  return buildRollout({
    rollout_id: id,
    segments: [{ input_ids: ids, generated_ids: [1, 2, 3], old_logprobs: [-0.5, -0.25, -1] }],
  });
};

const text = `\ufeff${toJsonl([
  buildRollout({ rollout_id: 'r-1' }),
  big('r-big-1'),
  '{not json',
  '',
  buildRollout({ rollout_id: 'r-2', reward: 0 }),
  '[1]',
  MINIMAL_RECORD_LINE,
  big('r-big-2'),
  buildRollout({ rollout_id: 'r-1' }),
])}\r\n${JSON.stringify(buildRollout({ rollout_id: 'r-last' }))}`;

describe('parse pool', () => {
  it('gives exactly the single-thread result: same report, same records, whatever the chunking and timing', async () => {
    const bytes = new TextEncoder().encode(text);
    const nonBlank = text.split('\n').flatMap((l, i) => (l.trim() === '' ? [] : [i + 1]));
    const alone = await lintSources([fileSource('local:a', chunkedFile(bytes, 'a.jsonl', [bytes.length]))]);
    expect(alone.report.rollouts.length).toBe(7);
    expect(alone.report.parse_errors.map((e) => e.line)).toEqual([3, 6]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 40_000 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer(),
        async (sizes, workers, seed) => {
          let s = seed;
          const random = () => {
            s = (s * 1103515245 + 12345) & 0x7fffffff;
            return s / 0x7fffffff;
          };
          const log = { blocks: 0 };
          const pool = createWorkerPool(workers, () => fakeWorker(random, log));
          let snapshots = 0;
          const pooled = await lintSources([fileSource('local:a', chunkedFile(bytes, 'a.jsonl', sizes))], {
            pool,
            // While blocks are out, the lines counted are exactly those parsed: none missing, none ahead.
            onSnapshot: (state) => {
              snapshots++;
              const { report } = state.summary();
              const merged = [...report.rollouts.map((r) => r.line), ...report.parse_errors.map((e) => e.line)];
              expect(Math.max(0, ...merged)).toBeLessThanOrEqual(report.summary.lines);
              expect(merged.length).toBe(nonBlank.filter((n) => n <= report.summary.lines).length);
            },
          });
          expect(snapshots).toBeGreaterThan(0);
          pool.close();
          expect(pooled.report).toEqual(alone.report);
          expect(pooled.advantages).toEqual(alone.advantages);
          expect(pooled.files).toEqual(alone.files);
          expect(pooled.records.map(expandRollout)).toEqual(alone.records.map(expandRollout));
          // The pool was used: everything after the first line went through it.
          expect(log.blocks).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a worker that fails names the file, and the load fails rather than hanging', async () => {
    const failing = (): LinesWorker => {
      const worker: LinesWorker = {
        onmessage: null,
        onerror: null,
        postMessage() {
          setTimeout(() => worker.onerror?.({ message: 'out of memory' } as ErrorEvent), 1);
        },
        terminate() {},
      };
      return worker;
    };
    const bytes = new TextEncoder().encode(toJsonl([buildRollout({ rollout_id: 'a' }), buildRollout({ rollout_id: 'b' })]));
    const pool = createWorkerPool(2, failing);
    await expect(lintSources([fileSource('local:x', chunkedFile(bytes, 'x.jsonl', [100]))], { pool })).rejects.toThrow(
      /parse worker stopped while reading x\.jsonl: out of memory/,
    );
  });
});
