import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DRIFT_THRESHOLD, DEFAULT_IS_CAP, defaultRules } from '../../analysis';
import { DEFAULT_MAX_LINE_BYTES } from '../../format';
import type { IndexRow } from '../../format/runIndex/columns';
import { buildRollout } from '../../testing/builders';
import { buildIndex } from './build';
import { readIndexRows } from './shardRows';

const root = mkdtempSync(join(tmpdir(), 'trajscope-index-'));
let n = 0;
function runDir(files: Record<string, string | Buffer>): string {
  const dir = join(root, `run-${n++}`);
  mkdirSync(dir);
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

const line = (id: string, over: Record<string, unknown> = {}) => JSON.stringify(buildRollout({ rollout_id: id, ...over }));

const rowsOf = readIndexRows;

/** The bytes a row's span names, read from the (uncompressed) file. */
function spanText(dir: string, row: IndexRow): string {
  const raw = readFileSync(join(dir, row.file));
  const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
  return bytes.subarray(row.offset, row.offset + row.length).toString('utf8');
}

describe('trajscope index', () => {
  it('gives every rollout the exact bytes of its line, in plain, gzip, CRLF, BOM and unterminated files', async () => {
    const a = [line('a1'), '', 'not json', line('a2', { task: { prompt: 'héllo ✓' } })].join('\n');
    const crlf = `${[line('c1'), line('c2'), line('c3')].join('\r\n')}\r\n`;
    const dir = runDir({
      'a.jsonl': `${a}\n`,
      'b.jsonl.gz': gzipSync(`${line('b1')}\n${line('b2')}`),
      'c.jsonl': crlf,
      'd.jsonl': `\uFEFF${line('d1')}\n${line('d2')}`,
    });
    const out = join(dir, 'idx');
    const { manifest } = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const rows = await rowsOf(out, manifest);
    expect(rows.map((r) => r.rollout_id).sort()).toEqual(['a1', 'a2', 'b1', 'b2', 'c1', 'c2', 'c3', 'd1', 'd2']);
    for (const r of rows) {
      const text = spanText(dir, r);
      // Exactly the line's JSON: no newline, no CR, no BOM.
      expect(text).toBe(line(r.rollout_id, r.rollout_id === 'a2' ? { task: { prompt: 'héllo ✓' } } : {}));
    }
    expect(rows.find((r) => r.rollout_id === 'a2')?.line).toBe(4);
    const a2 = manifest.files.find((f) => f.file === 'a.jsonl');
    expect(a2?.parse_errors).toEqual([{ line: 3, code: 'E_PARSE', message: expect.stringMatching(/not valid JSON/) }]);
    expect(manifest.files.find((f) => f.file === 'b.jsonl.gz')?.gzip).toBe(true);
  });

  it('takes training_step from the record, else the file name, else the run-wide order of policy versions', async () => {
    const dir = runDir({
      'step_0007.jsonl': `${line('s1')}\n${line('s2', { training_step: 3 })}\n`,
      'a.jsonl': `${line('p1', { policy_version: 'v-b' })}\n${line('p2', { policy_version: 'v-a' })}\n`,
      'b.jsonl': `${line('p3', { policy_version: 'v-c' })}\n${line('p4', { policy_version: 'v-a' })}\n`,
    });
    const out = join(dir, 'idx');
    const { manifest } = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const step = Object.fromEntries((await rowsOf(out, manifest)).map((r) => [r.rollout_id, [r.training_step, r.training_step_from]]));
    expect(step).toEqual({
      s1: [7, 'file_name'],
      s2: [3, 'record'],
      // First appearance over the run, files in name order: v-b (a.jsonl:1), v-a, then v-c (b.jsonl).
      p1: [0, 'policy_order'],
      p2: [1, 'policy_order'],
      p3: [2, 'policy_order'],
      p4: [1, 'policy_order'],
    });
    // Files in name order: step_0007's version (the builder's) comes after v-c.
    expect(manifest.files.map((f) => f.file)).toEqual(['a.jsonl', 'b.jsonl', 'step_0007.jsonl']);
    // Each shard's size, as written and as rewritten with the policy order (a.jsonl's, b.jsonl's): a
    // reader asks for its footer by range with it (issue 25).
    for (const s of manifest.files.flatMap((f) => f.shards)) expect(s.bytes).toBe(statSync(join(out, s.path)).size);
  });

  it('gives the shards of an index written before shard sizes were recorded their sizes when it reuses them', async () => {
    const dir = runDir({ 'step_0001.jsonl': `${line('a')}\n${line('b')}\n` });
    const out = join(dir, 'idx');
    await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const path = join(out, 'manifest.json');
    const older = JSON.parse(readFileSync(path, 'utf8'));
    for (const f of older.files) for (const s of f.shards) delete s.bytes;
    writeFileSync(path, JSON.stringify(older));
    const again = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect(again.indexed).toBe(0);
    const shards = again.manifest.files.flatMap((f) => f.shards);
    expect(shards).toHaveLength(1);
    for (const s of shards) expect(s.bytes).toBe(statSync(join(out, s.path)).size);
  });

  it('keeps an unchanged file’s shards, reads a grown file on from its last newline, and re-indexes a replaced one', async () => {
    const dir = runDir({ 'live.jsonl': `${line('l1')}\n${line('l2')}\n${line('l3').slice(0, 40)}`, 'still.jsonl': `${line('s1')}\n` });
    const out = join(dir, 'idx');
    const first = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const live0 = first.manifest.files.find((f) => f.file === 'live.jsonl');
    // The half-written third line is one error, not yet a rollout; its line sits past complete_lines.
    expect(live0?.parse_errors.map((e) => e.line)).toEqual([3]);
    expect(live0?.complete_lines).toBe(2);

    const again = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect(again.reused).toBe(2);
    expect(again.manifest).toEqual(first.manifest);

    appendFileSync(join(dir, 'live.jsonl'), `${line('l3').slice(40)}\n${line('l4')}`);
    const grown = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect([grown.reused, grown.resumed, grown.indexed]).toEqual([1, 1, 0]);
    const live1 = grown.manifest.files.find((f) => f.file === 'live.jsonl');
    expect(live1?.parse_errors).toEqual([]);
    // The first shard is kept as it was; the new lines are new shards (l4, unterminated, alone).
    expect(live1?.shards[0]).toEqual(live0?.shards[0]);
    expect(live1?.shards.map((s) => [s.from_line, s.to_line, s.rows])).toEqual([
      [1, 2, 2],
      [3, 3, 1],
      [4, 4, 1],
    ]);
    const rows = (await rowsOf(out, grown.manifest)).filter((r) => r.file === 'live.jsonl');
    expect(rows.map((r) => [r.rollout_id, r.line])).toEqual([
      ['l1', 1],
      ['l2', 2],
      ['l3', 3],
      ['l4', 4],
    ]);
    for (const r of rows) expect(JSON.parse(spanText(dir, r)).rollout_id).toBe(r.rollout_id);
    // Equal to indexing the grown file afresh, but for the shard paths.
    const fresh = await buildIndex({ inputs: [dir], outDir: join(dir, 'fresh'), jobs: 1 });
    const strip = (rs: IndexRow[]) => rs.sort((x, y) => (x.file + x.line < y.file + y.line ? -1 : 1));
    expect(strip(await rowsOf(out, grown.manifest))).toEqual(strip(await rowsOf(join(dir, 'fresh'), fresh.manifest)));

    // Replaced by a longer file with other bytes before the old end: indexed whole again.
    writeFileSync(join(dir, 'live.jsonl'), `${line('x1')}\n${line('x2')}\n${line('x3')}\n${line('x4')}\n${line('x5')}\n`);
    const replaced = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect([replaced.resumed, replaced.indexed]).toEqual([0, 1]);
    expect((await rowsOf(out, replaced.manifest)).filter((r) => r.file === 'live.jsonl').map((r) => r.rollout_id)).toEqual([
      'x1',
      'x2',
      'x3',
      'x4',
      'x5',
    ]);
    // Shrunk (or touched with the same size): indexed whole.
    writeFileSync(join(dir, 'live.jsonl'), `${line('y1')}\n`);
    const shrunk = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect(shrunk.indexed).toBe(1);
    const t = statSync(join(dir, 'still.jsonl')).mtime;
    utimesSync(join(dir, 'still.jsonl'), t, new Date(t.getTime() + 5000));
    expect((await buildIndex({ inputs: [dir], outDir: out, jobs: 1 })).indexed).toBe(1);
    // No shard is left that the manifest does not name.
    const last = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const named = last.manifest.files.flatMap((f) => f.shards.map((s) => s.path)).sort();
    const onDisk = (readdirSync(join(out, 'shards'), { recursive: true }) as string[]).filter((p) => p.endsWith('.parquet'));
    expect(onDisk.map((p) => `shards/${p.split(sep).join('/')}`).sort()).toEqual(named);
  });

  it('reads every file again when the options change (they change the rows), and reuses them when they do not', async () => {
    const dir = runDir({ 'u.jsonl': `${line('u1', { termination: 'unknown' })}\n` });
    const out = join(dir, 'idx');
    const plain = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect((await rowsOf(out, plain.manifest))[0]?.in_signal).toBe(false);
    const counted = await buildIndex({ inputs: [dir], outDir: out, jobs: 1, rows: { unknownAsFinished: true } });
    expect([counted.reused, counted.indexed]).toEqual([0, 1]);
    expect((await rowsOf(out, counted.manifest))[0]?.in_signal).toBe(true);
    expect((await buildIndex({ inputs: [dir], outDir: out, jobs: 1, rows: { unknownAsFinished: true } })).reused).toBe(1);
  });

  it('runs the scanner rules it is given (index --rules): their codes are in the rows, and other rules index again', async () => {
    const cases = readFileSync(new URL('../../../public/demo/scanner-cases.jsonl', import.meta.url), 'utf8');
    const dir = runDir({ 'cases.jsonl': cases });
    const out = join(dir, 'idx');
    const plain = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect((await rowsOf(out, plain.manifest)).filter((r) => r.finding_codes.some((c) => c.endsWith('_SCAN')))).toHaveLength(0);
    const scanned = await buildIndex({ inputs: [dir], outDir: out, jobs: 1, rows: { rules: defaultRules() } });
    expect([scanned.reused, scanned.indexed]).toEqual([0, 1]);
    const hit = (await rowsOf(out, scanned.manifest)).filter((r) => r.finding_codes.some((c) => c.endsWith('_SCAN')));
    // Every case rollout but the clean one (scannerCases.test.ts names which rule hits which).
    expect(hit.map((r) => r.rollout_id).sort()).toEqual(
      cases
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { rollout_id: string }).rollout_id)
        .filter((id) => id !== 'r-clean-article')
        .sort(),
    );
  });

  it('indexes an empty file as a file of no lines, beside others, with one job or two', async () => {
    const dir = runDir({ 'empty.jsonl': '', 'a.jsonl': `${line('a1')}\n` });
    for (const jobs of [1, 2]) {
      const { manifest } = await buildIndex({ inputs: [dir], outDir: join(dir, `idx${jobs}`), jobs });
      expect(manifest.files.map((f) => [f.file, f.lines, f.shards.length])).toEqual([
        ['a.jsonl', 1, 1],
        ['empty.jsonl', 0, 0],
      ]);
    }
  });

  it('reuses an index whose options differ only in naming the defaults (index names them, view and query do not)', async () => {
    const dir = runDir({ 'u.jsonl': `${line('u1')}\n` });
    const out = join(dir, 'idx');
    const named = { from: 'auto' as const, maxLineBytes: DEFAULT_MAX_LINE_BYTES };
    const rows = { driftThreshold: DEFAULT_DRIFT_THRESHOLD, unknownAsFinished: false, isCap: DEFAULT_IS_CAP };
    await buildIndex({ inputs: [dir], outDir: out, jobs: 1, read: named, rows });
    expect((await buildIndex({ inputs: [dir], outDir: out, jobs: 1 })).reused).toBe(1);
    expect((await buildIndex({ inputs: [dir], outDir: out, jobs: 1, read: named, rows })).reused).toBe(1);
    expect((await buildIndex({ inputs: [dir], outDir: out, jobs: 1, rows: { isCap: 3 } })).indexed).toBe(1);
  });

  it('splits a file into shards at the row limit, each covering whole lines', async () => {
    const dir = runDir({ 'big.jsonl': `${Array.from({ length: 25 }, (_, i) => line(`r${i}`)).join('\n')}\n` });
    const out = join(dir, 'idx');
    const { manifest } = await buildIndex({ inputs: [dir], outDir: out, jobs: 1, shardRows: 10 });
    const shards = manifest.files[0]?.shards ?? [];
    expect(shards.map((s) => [s.from_line, s.to_line, s.rows])).toEqual([
      [1, 10, 10],
      [11, 20, 10],
      [21, 25, 5],
    ]);
    expect(shards.every((s, i) => i === 0 || s.from_byte === shards[i - 1]?.to_byte)).toBe(true);
    expect(shards.at(-1)?.to_byte).toBe(statSync(join(dir, 'big.jsonl')).size);
  });
});
