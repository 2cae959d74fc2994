import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildRollout } from '../../testing/builders';
import { buildIndex, readManifest } from './build';
import { openIndexDb } from './sql';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, '../../../scripts/index-parallel.sh');

/** A run of 7 files whose names carry no step (so the run-wide policy order must survive the merge), groups across files. */
function makeRun(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'trajscope-scale-')), 'run');
  mkdirSync(join(dir, 'sub'), { recursive: true });
  let k = 0;
  for (let f = 0; f < 7; f++) {
    const lines = Array.from({ length: 8 }, (_, i) =>
      JSON.stringify(
        buildRollout({
          rollout_id: `r${k++}`,
          group_id: `g${(f * 8 + i) % 11}`,
          policy_version: `v-${String.fromCharCode(106 - f)}`,
          reward: ((f * 8 + i) * 7919) % 5 === 0 ? null : (((f * 8 + i) * 7919) % 13) / 13,
          termination: i === 3 ? 'infra_failure' : 'finished',
          ...(i === 3 ? { reward: null } : {}),
        }),
      ),
    );
    const name = f === 2 ? 'sub/part-c.jsonl.gz' : `part-${'abcdefg'[f]}.jsonl`;
    const text = `${lines.join('\n')}\n`;
    writeFileSync(join(dir, name), name.endsWith('.gz') ? gzipSync(text) : text);
  }
  return dir;
}

const QUERIES = [
  // `offset` is an SQL keyword: quoted, as any query naming it must.
  'SELECT *, "offset" + length AS span_end FROM rollouts ORDER BY file, line',
  'SELECT group_id, rollouts, in_signal, n, round(mean, 12), round(std, 12), zero_variance, mixed_policy FROM groups ORDER BY group_id',
  'SELECT file, line, round(advantage, 9), round(advantage_dr_grpo, 9) FROM advantages ORDER BY file, line',
];

async function answers(indexDir: string): Promise<unknown[]> {
  const manifest = await readManifest(indexDir);
  if (!manifest) throw new Error('no manifest');
  const c = await openIndexDb(indexDir, manifest);
  const out = [];
  for (const q of QUERIES) out.push((await c.run(q)).rows);
  c.close();
  return out;
}

describe('indexing beyond one process', () => {
  it('a job array of index tasks, merged, answers every query as one process does (and as --jobs 2 does)', async () => {
    const dir = makeRun();
    const single = join(dir, '..', 'single');
    await buildIndex({ inputs: [dir], outDir: single, jobs: 1 });
    const pooled = join(dir, '..', 'pooled');
    await buildIndex({ inputs: [dir], outDir: pooled, jobs: 2, shardRows: 3 });
    const sharded = join(dir, '..', 'sharded');
    await run('bash', [SCRIPT, dir, sharded, '3'], { env: { ...process.env, TRAJSCOPE_INDEX_ARGS: '--shard-rows 3' } });

    const merged = await readManifest(sharded);
    expect(merged?.files.length).toBe(7);
    // Many shards, named from the merged manifest's directory: a part's own, or (when the run-wide
    // policy order changed its rows) rewritten into the merged index's shards/.
    const shards = merged?.files.flatMap((f) => f.shards) ?? [];
    expect(shards.length).toBeGreaterThanOrEqual(21);
    expect(shards.every((s) => /^parts\/task-[0-2]\/shards\//.test(s.path) || s.path.startsWith('shards/merged/'))).toBe(true);
    for (const k of [0, 1, 2]) expect((await readManifest(join(sharded, 'parts', `task-${k}`)))?.files.length).toBeGreaterThan(1);

    const expected = await answers(single);
    expect((expected[0] as unknown[]).length).toBe(56);
    // The policy order is the run's, not a part's: part-g (v-d) was first seen 7th, whichever task read it.
    expect(await answers(sharded)).toEqual(expected);
    expect(await answers(pooled)).toEqual(expected);
  }, 60_000);

  it('refuses to merge parts of different runs or parts that index one file twice', async () => {
    const a = makeRun();
    const b = makeRun();
    // The parts sit under the merged index, as scripts/index-parallel.sh puts them (an index names only files inside it).
    const m = join(a, '..', 'm');
    const part = (name: string) => join(m, 'parts', name);
    await buildIndex({ inputs: [a], outDir: part('pa'), jobs: 1 });
    await buildIndex({ inputs: [b], outDir: part('pb'), jobs: 1 });
    await buildIndex({ inputs: [a], outDir: part('pa2'), jobs: 1 });
    const { mergeIndexes } = await import('./merge');
    await expect(mergeIndexes([part('pa'), part('pb')], m)).rejects.toThrow(/merge indexes of one run/);
    await expect(mergeIndexes([part('pa'), part('pa2')], m)).rejects.toThrow(/is in both/);
    await expect(mergeIndexes([part('nothing')], m)).rejects.toThrow(/not a run index/);
  });
});
