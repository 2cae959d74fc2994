import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeIndexShard, type RunManifest } from '../../format';
import { buildIndexRow } from '../../testing/builders';
import { rolloutKeys } from '../rolloutKeys';
import { RangeReader } from './rangeRead';
import { mergePart, RunColumns } from './runColumns';
import { runDataset } from './runDataset';
import type { RunSnapshot } from './runIndex';
import { appendShard, decodeShard } from './shardRows';

const MANIFEST: RunManifest = { version: 1, source_base: '', files: [] };

/** A snapshot of rows with these training steps (null: none), read here (`appendShard`) or merged from parts. */
async function snapshotOf(steps: readonly (number | null)[], merged: boolean): Promise<RunSnapshot> {
  const rows = steps.map((s, k) => buildIndexRow({ line: k + 1, rollout_id: `r-${k}`, training_step: s }));
  const bytes = encodeIndexShard(rows, {}, 7);
  const columns = new RunColumns(4);
  if (merged) await decodeShard(bytes, rows.length, 'x', (p) => mergePart(columns, p));
  else await appendShard(columns, bytes, rows.length, 'x');
  return { manifestUrl: 'http://host.test/index/manifest.json', manifest: MANIFEST, columns, rows: columns.n, shards: [], version: 1 };
}

const inRange = (snap: RunSnapshot, from: number, to: number) =>
  runDataset(snap, { from, to }, { reader: new RangeReader(), records: new Map() }).rows.map((r) => r.rollout_id);

describe('a run dataset of a step range', () => {
  // Issue 25: a rollout opened from a run of a million rows looked for its step's rows with a pass over
  // every row (13-28 ms of the click); rows in step order are now found by binary search. The two ways
  // must agree, whatever the order, and whether the rows were read here or merged from a worker's parts.
  it('holds the rows whose step is in the range, in index order, sorted or not', async () => {
    const step = fc.option(fc.integer({ min: 0, max: 6 }), { nil: null });
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: -1, max: 7 }),
        fc.integer({ min: 0, max: 4 }),
        async (steps, sort, merged, from, width) => {
          const ordered = sort ? [...steps].sort((a, b) => (a ?? -1) - (b ?? -1)) : steps;
          const snap = await snapshotOf(ordered, merged);
          const expected = ordered.flatMap((s, k) => ((s ?? -1) >= from && (s ?? -1) <= from + width ? [`r-${k}`] : []));
          expect(inRange(snap, from, from + width)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });

  // Issue 25: the rollout page asks for its rollout's group alone (`groupOf`), not the step's every group.
  // It must be the group and advantage the run list and the groups page read, in both advantage modes,
  // with attempts of one rollout, rewards missing and rollouts out of the signal.
  it("gives one row, its key and its group and advantage as the step's rows and groups do", async () => {
    const row = fc.record({
      group: fc.integer({ min: 0, max: 3 }),
      reward: fc.option(fc.constantFrom(0, 0.5, 1), { nil: null }),
      inSignal: fc.boolean(),
      rollout: fc.integer({ min: 0, max: 5 }),
      attempt: fc.constantFrom(null, 'a-1', 'a-2'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 24 }), async (picked) => {
        const rows = picked.map((p, k) =>
          buildIndexRow({
            line: k + 1,
            rollout_id: `r-${p.rollout}`,
            attempt_id: p.attempt,
            group_id: `g-${p.group}`,
            reward: p.reward,
            in_signal: p.inSignal,
            termination: p.inSignal ? 'finished' : 'infra_failure',
          }),
        );
        const columns = new RunColumns(4);
        await appendShard(columns, encodeIndexShard(rows, {}, 7), rows.length, 'x');
        const snap: RunSnapshot = {
          manifestUrl: 'http://host.test/index/manifest.json',
          manifest: MANIFEST,
          columns,
          rows: columns.n,
          shards: [],
          version: 1,
        };
        const ctx = { reader: new RangeReader(), records: new Map() };
        // Two datasets: the one asked for single groups has not made the step's groups first, nor its rows:
        // it finds a key, its row and its group as a rollout's page does (`indexOf`, `row`, `groupOf`).
        const single = runDataset(snap, { from: 0, to: 0 }, ctx);
        const whole = runDataset(snap, { from: 0, to: 0 }, ctx);
        for (const key of [...whole.keys, ...picked.map((p) => `r-${p.rollout}`), 'r-none', null]) {
          const i = single.indexOf(key);
          expect(i).toBe(whole.indexOf(key));
          expect(single.row(i)).toEqual(whole.rows[i]);
        }
        for (const mode of ['grpo', 'dr'] as const) {
          whole.rows.forEach((r, i) => {
            const one = single.groupOf(i, mode);
            expect(one.group).toEqual(whole.groupsById.get(r.group_id));
            expect(one.advantage).toBe(whole.advantages(mode)[i] ?? null);
          });
        }
        // The keys read from the identity columns are the ones the rows' summaries make.
        expect(single.keys).toEqual(rolloutKeys(whole.rows));
        expect(single.rows).toEqual(whole.rows);
      }),
      { numRuns: 60 },
    );
  });

  it('knows where rows stop being in step order, across parts and shards', async () => {
    expect((await snapshotOf([0, 0, 1, 1, 1, 2, 2, 2, 3, 3], true)).columns.sortedTo).toBe(Number.POSITIVE_INFINITY);
    // Row 8 (in the second part of 7 rows) goes back a step.
    expect((await snapshotOf([0, 0, 1, 1, 1, 2, 2, 2, 1, 3], true)).columns.sortedTo).toBe(8);
    // Row 7, the first of the second part, goes back a step: the part's first row is compared with the last held.
    expect((await snapshotOf([0, 0, 1, 1, 1, 2, 2, 1, 3], false)).columns.sortedTo).toBe(7);
  });
});
