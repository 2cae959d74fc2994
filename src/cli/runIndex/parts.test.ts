import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexRow } from '../../format/runIndex/columns';
import type { RunManifest } from '../../format/runIndex/manifest';
import { buildRollout } from '../../testing/builders';
import { buildIndex, type IndexTrace } from './build';
import { keptChildren } from './children';
import { remoteScan } from './pool';
import { type ScanResult, type ScanTask, scanFile } from './scanFile';
import { readIndexRows, readShardRows } from './shardRows';
import { indexWorkerEntry } from './workerBundle';

/*
 * A file split between jobs (pool.ts) must index exactly as it does whole: the same rows (lines, spans,
 * every column), the same parse errors and line counts. Parts after the first are numbered only once the
 * parts before them are counted, so these tests split small files into many parts.
 */

const root = mkdtempSync(join(tmpdir(), 'trajscope-parts-'));
let n = 0;

const rollout = (id: string, over: Record<string, unknown> = {}) => JSON.stringify(buildRollout({ rollout_id: id, ...over }));

async function rowsOf(indexDir: string, manifest: RunManifest): Promise<IndexRow[]> {
  return (await readIndexRows(indexDir, manifest)).sort((a, b) => a.line - b.line);
}

/** What a manifest says of a file, but for where its shards lie (a split file has more of them). */
function facts(manifest: RunManifest) {
  return manifest.files.map(({ shards, mtime_ms: _m, ...rest }) => ({ ...rest, rows: shards.reduce((k, s) => k + s.rows, 0) }));
}

async function indexBoth(content: string | Buffer, minPartBytes: number) {
  const dir = join(root, `run-${n++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'step_0001.jsonl'), content);
  const whole = await buildIndex({ inputs: [dir], outDir: join(dir, 'whole'), jobs: 1 });
  const trace: IndexTrace = { ready: [], files: [] };
  const split = await buildIndex({ inputs: [dir], outDir: join(dir, 'split'), jobs: 2, minPartBytes, trace });
  return {
    whole: { facts: facts(whole.manifest), rows: await rowsOf(join(dir, 'whole'), whole.manifest) },
    split: { facts: facts(split.manifest), rows: await rowsOf(join(dir, 'split'), split.manifest) },
    manifest: split.manifest,
    trace,
  };
}

/** A line whose bytes begin 1F 8B (gzip's magic), as latin1 text: written byte for byte. */
const GZIP_LIKE = '\u001f\u008b\u0008 not gzip';

describe('a file split between index jobs', () => {
  it('indexes as it does whole, whatever its lines and wherever it is cut (property, fixed seed)', async () => {
    const line = fc.oneof(
      { arbitrary: fc.record({ policy: fc.constantFrom('p1', 'p2', 'p3'), step: fc.option(fc.nat(4), { nil: undefined }) }), weight: 8 },
      // Bad lines, among them lines whose first bytes are gzip's and zip's magic (a part may begin with one).
      { arbitrary: fc.constantFrom('', 'not json', '{"rollout_id": 3}', '[1, 2', 'PK\u0003\u0004 zip-like', GZIP_LIKE), weight: 2 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        fc.boolean(),
        fc.integer({ min: 200, max: 3000 }),
        async (lines, crlf, terminated, minPart) => {
          // The first line is a rollout (a file is split only when its first line is v1).
          const text = [{ policy: 'p0' }, ...lines].map((l, i) =>
            typeof l === 'string'
              ? l
              : rollout(`r${i}`, { policy_version: l.policy, ...('step' in l && l.step !== undefined ? { training_step: l.step } : {}) }),
          );
          const eol = crlf ? '\r\n' : '\n';
          const content = Buffer.from(text.join(eol) + (terminated ? eol : ''), 'latin1');
          const { whole, split, trace } = await indexBoth(content, minPart);
          expect(split.rows).toEqual(whole.rows);
          expect(split.facts).toEqual(whole.facts);
          // It was split: a piece of it is a part (a file under two smallest parts stays whole).
          if (Buffer.byteLength(content) >= 3 * minPart) expect(trace.files.filter((f) => f.part).length).toBeGreaterThan(1);
        },
      ),
      { seed: 20261202, numRuns: 25 },
    );
  }, 120_000);

  it('numbers a part a child process read once the line before it is known, as this process does', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => (i % 97 === 50 ? 'not json' : rollout(`r${i}`, { policy_version: `p${i % 3}` })));
    const dir = join(root, `run-${n++}`);
    mkdirSync(dir);
    const path = join(dir, 'step_0001.jsonl');
    writeFileSync(path, `${lines.join('\n')}\n`);
    // The part from line 101 to the end, its first line's number unknown to whoever reads it.
    const from = Buffer.byteLength(`${lines.slice(0, 100).join('\n')}\n`);
    const task = (out: string): ScanTask => ({
      path,
      file: 'step_0001.jsonl',
      outDir: join(dir, out),
      part: { from, to: null, line: null },
      shardRows: 64,
      read: {},
      rows: {},
    });
    const { script, args } = await indexWorkerEntry();
    const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    try {
      await new Promise((resolve) => child.once('message', resolve));
      const there = await remoteScan(child)(task('there'));
      const here = await scanFile(task('here'));
      if (!('finish' in there) || !('finish' in here)) throw new Error('a part of unknown line was written before it was counted');
      expect(there.lines).toBe(200);
      expect(here.lines).toBe(200);
      const [a, b] = await Promise.all([there.finish(101), here.finish(101)]);
      expect(a.parse_errors.map((e) => e.line)).toEqual([148, 245]);
      expect(a.shards.map((s) => [s.from_line, s.to_line, s.rows])).toEqual([
        [101, 165, 64],
        [166, 229, 64],
        [230, 294, 64],
        [295, 300, 6],
      ]);
      const strip = (r: ScanResult) => ({ ...r, shards: r.shards.map(({ path: _p, ...s }) => s) });
      expect(strip(a)).toEqual(strip(b));
      const read = async (out: string, r: ScanResult) => {
        const rows: IndexRow[] = [];
        for (const sh of r.shards) rows.push(...(await readShardRows(join(dir, out), sh.path)));
        return rows;
      };
      const rows = await read('there', a);
      expect(rows).toEqual(await read('here', b));
      expect(rows[0]?.line).toBe(101);
      expect(rows.at(-1)?.line).toBe(300);
      expect(rows.map((r) => r.rollout_id)).toEqual(lines.slice(100).flatMap((l) => (l === 'not json' ? [] : [JSON.parse(l).rollout_id])));
    } finally {
      child.kill();
    }
  }, 60_000);

  it('gives the same index with both jobs at work on one file', async () => {
    // Large enough that the child has usually loaded before this process is done, so both take parts.
    const lines = Array.from({ length: 4000 }, (_, i) =>
      i % 997 === 500 ? 'not json' : rollout(`r${i}`, { policy_version: `p${Math.floor(i / 1000)}`, task: { prompt: 'x'.repeat(12_000) } }),
    );
    const { whole, split, manifest } = await indexBoth(`${lines.join('\n')}\n`, 64 * 1024);
    expect(split.rows).toEqual(whole.rows);
    // The run's child waits for the next run (a view server indexes a growing run again and again).
    expect(keptChildren()).toBe(1);
    expect(split.facts).toEqual(whole.facts);
    expect(split.facts[0]?.parse_errors.map((e) => e.line)).toEqual([501, 1498, 2495, 3492]);
    // Shards follow each other, line after line and byte after byte.
    const shards = manifest.files[0]?.shards ?? [];
    expect(shards.length).toBeGreaterThan(1);
    for (let i = 1; i < shards.length; i++) {
      expect(shards[i]?.from_line).toBe((shards[i - 1]?.to_line ?? 0) + 1);
      expect(shards[i]?.from_byte).toBe(shards[i - 1]?.to_byte);
    }
  }, 60_000);

  it('keeps a file whole when its first line is not v1 (another format’s ids depend on where a record is)', async () => {
    const chat = (i: number) =>
      JSON.stringify({
        messages: [
          { role: 'user', content: `q${i} ${'y'.repeat(300)}` },
          { role: 'assistant', content: 'a' },
        ],
      });
    const content = `${Array.from({ length: 200 }, (_, i) => chat(i)).join('\n')}\n`;
    const { whole, split, trace } = await indexBoth(content, 1024);
    expect(trace.files.some((f) => f.part)).toBe(false);
    expect(split.rows).toEqual(whole.rows);
  }, 60_000);
});
