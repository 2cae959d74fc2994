import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeIndexShard } from '../../format/runIndex/columns';
import { buildRollout } from '../../testing/builders';
import { runQuery } from '../query';
import { buildIndex, runIndexDir, writableRunIndexDir } from './build';
import { mergeIndexes } from './merge';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../../bin/trajscope.mjs');

/** The real command line, in a child process: what a user runs (used once per kind of refusal; each costs ~1 s). */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { maxBuffer: 64 * 2 ** 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const line = (id: string, reward: number) => JSON.stringify(buildRollout({ rollout_id: id, reward }));

/**
 * A fresh world per test: a run of two files, and beside it the user's files a hostile index aims at
 * (a text file and a Parquet file that looks like a shard).
 */
let root: string;
let runDir: string;
let victims: string;
let index: string;
function freshWorld(): void {
  root = mkdtempSync(join(tmpdir(), 'trajscope-hostile-index-'));
  runDir = join(root, 'run');
  victims = join(root, 'victims');
  mkdirSync(runDir);
  mkdirSync(victims);
  writeFileSync(join(runDir, 'step_1.jsonl'), `${line('r1', 1)}\n${line('r2', 0)}\n`);
  writeFileSync(join(runDir, 'step_2.jsonl'), `${line('r3', 0.5)}\n`);
  writeFileSync(join(victims, 'precious.txt'), 'keep me\n');
  writeFileSync(join(victims, 'precious.parquet'), new Uint8Array(encodeIndexShard([])));
  index = runIndexDir(runDir);
}

/** Every file under the victims' folder with its bytes: a test compares it before and after. */
function victimState(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[p] = readFileSync(p).toString('base64');
    }
  };
  walk(victims);
  return out;
}

/**
 * `trajscope query ARGS` in this process (stdout and stderr captured): the same code as the command,
 * without a child's second of start-up, for the many SQL cases.
 */
async function query(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await runQuery(args);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** The run's own index as `query RUN` builds it, then its manifest edited by `plant`. */
async function plantManifest(plant: (m: { files: { file: string; shards: { path: string }[] }[] }) => void): Promise<void> {
  await buildIndex({ inputs: [runDir], outDir: await writableRunIndexDir(runDir), jobs: 1 });
  const path = join(index, 'manifest.json');
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  plant(manifest);
  writeFileSync(path, JSON.stringify(manifest));
}

/** `query RUN` and `index RUN` (the same re-index `view` runs), each refused in one line naming `entry`. */
async function expectRefused(entry: RegExp): Promise<void> {
  const before = victimState();
  for (const r of [await query(runDir, 'SELECT count(*) FROM rollouts'), await cli('index', runDir, '--out', index)]) {
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(entry);
    expect(r.stderr).toMatch(/refused/);
    expect(r.stdout).toBe('');
  }
  await expect(buildIndex({ inputs: [runDir], outDir: index, jobs: 1 })).rejects.toThrow(entry);
  expect(victimState()).toEqual(before);
}

describe('an untrusted run never deletes, reads or writes outside its index (issue 28)', () => {
  beforeEach(freshWorld);
  it('refuses a planted shard path that leaves the index', async () => {
    await plantManifest((m) => {
      const f = m.files[0];
      if (f?.shards[0]) f.shards[0].path = '../../../victims/precious.txt';
      // The file changed, so today's index deleted the old entry's "shard".
      writeFileSync(join(runDir, 'step_1.jsonl'), `${line('r1', 1)}\n`);
    });
    await expectRefused(
      /files\.0\.shards\.0\.path \(file "step_1\.jsonl"\): "\.\.\/\.\.\/\.\.\/victims\/precious\.txt" leaves the index folder .*: refused/,
    );
    expect(readFileSync(join(victims, 'precious.txt'), 'utf8')).toBe('keep me\n');
  });

  it('refuses an absolute shard path, even on an unchanged file (it would be carried over and read by query)', async () => {
    await plantManifest((m) => {
      const f = m.files[1];
      if (f?.shards[0]) f.shards[0].path = join(victims, 'precious.parquet');
    });
    await expectRefused(/files\.1\.shards\.0\.path \(file "step_2\.jsonl"\): ".*precious\.parquet" is absolute/);
  });

  it('refuses an entry of a file the run no longer has, naming an outside path', async () => {
    await plantManifest((m) => {
      m.files.push({ ...structuredClone(m.files[0] as object), file: 'gone.jsonl', shards: [{ path: '../victim.txt' }] } as never);
    });
    writeFileSync(join(root, 'run', '.trajscope', 'victim.txt'), 'mine\n');
    await expectRefused(/files\.2\.shards\.0\.path \(file "gone\.jsonl"\): "\.\.\/victim\.txt" leaves the index folder .*: refused/);
    expect(readFileSync(join(runDir, '.trajscope', 'victim.txt'), 'utf8')).toBe('mine\n');
  });

  it('refuses a shards/ folder that is a symbolic link, and writes nothing in its target', async () => {
    await plantManifest(() => {});
    rmSync(join(index, 'shards'), { recursive: true });
    symlinkSync(victims, join(index, 'shards'));
    writeFileSync(join(runDir, 'step_1.jsonl'), `${line('r9', 1)}\n`);
    await expectRefused(/shards is a symbolic link/);
    expect(readdirSync(victims).sort()).toEqual(['precious.parquet', 'precious.txt']);
  });

  it('refuses a shard folder inside shards/ that is a link (a named shard reached through it)', async () => {
    await plantManifest(() => {});
    rmSync(join(index, 'shards', 'step_2.jsonl'), { recursive: true });
    symlinkSync(victims, join(index, 'shards', 'step_2.jsonl'));
    writeFileSync(join(runDir, 'step_2.jsonl'), `${line('r8', 1)}\n`);
    await expectRefused(/entry of "step_2\.jsonl": "shards\/step_2\.jsonl\/L.*\.parquet" goes through a symbolic link: refused/);
    expect(readdirSync(victims).sort()).toEqual(['precious.parquet', 'precious.txt']);
  });

  it('never writes a new shard through a link planted where the index has none yet', async () => {
    mkdirSync(join(index, 'shards'), { recursive: true });
    symlinkSync(victims, join(index, 'shards', 'step_1.jsonl'));
    const before = victimState();
    const r = await cli('index', runDir, '--out', index, '--jobs', '1');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/goes through a symbolic link/);
    expect(victimState()).toEqual(before);
  });

  it('refuses a run whose .trajscope or index folder is a symbolic link', async () => {
    symlinkSync(victims, join(runDir, '.trajscope'));
    await expect(writableRunIndexDir(runDir)).rejects.toThrow(/\.trajscope is a symbolic link: refused/);
    const before = victimState();
    const q = await query(runDir, 'SELECT 1');
    expect([q.code, q.stderr]).toEqual([2, expect.stringMatching(/\.trajscope is a symbolic link: refused/)]);
    const v = await cli('view', runDir, '--port', '0');
    expect([v.code, v.stderr]).toEqual([2, expect.stringMatching(/\.trajscope is a symbolic link: refused/)]);
    expect(victimState()).toEqual(before);
    rmSync(join(runDir, '.trajscope'));
    mkdirSync(join(runDir, '.trajscope'));
    symlinkSync(victims, join(runDir, '.trajscope', 'index'));
    await expect(writableRunIndexDir(runDir)).rejects.toThrow(/index is a symbolic link: refused/);
  });

  it('`view` of a run with a planted manifest exits 2 before serving, and deletes nothing', async () => {
    await plantManifest((m) => {
      const f = m.files[0];
      if (f?.shards[0]) f.shards[0].path = '../../../victims/precious.txt';
    });
    const before = victimState();
    const v = await cli('view', runDir, '--port', '0');
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(/^trajscope view: .*manifest\.json: files\.0\.shards\.0\.path .* leaves the index folder .*: refused/);
    expect(victimState()).toEqual(before);
  });

  // Issue 25: reusing a shard now records its size (a reader asks for its footer by range with it).
  it('refuses a link planted in place of a shard of an unchanged file: no size taken from its target, nothing touched', async () => {
    await buildIndex({ inputs: [runDir], outDir: index, jobs: 1 });
    const dir = join(index, 'shards', 'step_2.jsonl');
    const [name] = readdirSync(dir);
    rmSync(join(dir, name ?? ''));
    symlinkSync(join(victims, 'precious.parquet'), join(dir, name ?? ''));
    const before = victimState();
    await expect(buildIndex({ inputs: [runDir], outDir: index, jobs: 1 })).rejects.toThrow(
      /entry of "step_2\.jsonl": ".*\.parquet" goes through a symbolic link: refused, nothing read, written or deleted/,
    );
    expect(victimState()).toEqual(before);
  });

  it('deletes only the shards it wrote: a replaced shard goes, a stray file in shards/ stays', async () => {
    await buildIndex({ inputs: [runDir], outDir: index, jobs: 1 });
    writeFileSync(join(index, 'shards', 'notes.txt'), 'mine\n');
    const old = readdirSync(join(index, 'shards', 'step_1.jsonl'));
    writeFileSync(join(runDir, 'step_1.jsonl'), `${line('r7', 1)}\n`);
    await buildIndex({ inputs: [runDir], outDir: index, jobs: 1 });
    const now = readdirSync(join(index, 'shards', 'step_1.jsonl'));
    expect(now).toHaveLength(1);
    expect(now).not.toEqual(old);
    expect(readFileSync(join(index, 'shards', 'notes.txt'), 'utf8')).toBe('mine\n');
  });

  it('merges only parts inside the merged index', async () => {
    const out = join(root, 'merged');
    const part = join(root, 'elsewhere');
    await buildIndex({ inputs: [runDir], outDir: part, jobs: 1 });
    await expect(mergeIndexes([part], out)).rejects.toThrow(/is not inside .*merged: put the parts under the merged index/);
    const inside = join(out, 'parts', 'task-0');
    await buildIndex({ inputs: [runDir], outDir: inside, jobs: 1 });
    const manifest = await mergeIndexes([inside], out);
    expect(manifest.files.flatMap((f) => f.shards.map((s) => s.path)).every((p) => p.startsWith('parts/task-0/shards/'))).toBe(true);
    expect((await query(out, 'SELECT count(*) AS n FROM rollouts', '--json')).stdout).toBe('[{"n":3}]\n');
  });
});

describe('query reads the index only (issue 28)', () => {
  beforeAll(async () => {
    freshWorld();
    await buildIndex({ inputs: [runDir], outDir: index, jobs: 1 });
  });
  const refusals: [string, RegExp][] = [
    ["SELECT * FROM read_csv('/etc/passwd')", /refused: Cannot access file "\/etc\/passwd"/],
    ["SELECT * FROM read_text('/etc/passwd')", /refused: Cannot access file "\/etc\/passwd"/],
    ["SELECT * FROM read_blob('/etc/passwd')", /refused: Cannot access file "\/etc\/passwd"/],
    ["SELECT * FROM glob('/etc/*')", /refused: Cannot access file "\/etc\/\*"/],
    ["SELECT * FROM sniff_csv('/etc/passwd')", /refused: Cannot access file "\/etc\/passwd"/],
    ["SELECT * FROM read_parquet('VICTIMS/precious.parquet')", /refused: Cannot access file ".*precious\.parquet"/],
    ["SELECT * FROM 'VICTIMS/precious.parquet'", /refused: Cannot access file ".*precious\.parquet"/],
    ["COPY (SELECT 1) TO 'VICTIMS/copied.csv'", /refused: .*copied\.csv/],
    ["ATTACH 'VICTIMS/db.duckdb'", /refused: .*(ATTACH|db\.duckdb)/],
    ['INSTALL httpfs', /refused: INSTALL statements are not run/],
    ['LOAD httpfs', /refused: LOAD statements are not run/],
    ['CREATE TABLE t AS SELECT 1', /refused: CREATE statements are not run/],
    ['DROP VIEW rollouts', /refused: DROP statements are not run/],
    ['SET enable_external_access = true', /refused: SET statements are not run/],
    ['EXPLAIN ANALYZE DROP VIEW rollouts', /refused: DROP statements are not run/],
    ['SELECT 1; DROP VIEW rollouts', /give one SQL statement \(this text has 2\)/],
  ];
  it.each(refusals)('refuses %s in one line, and leaves the files alone', async (sql, why) => {
    const before = victimState();
    const r = await query(index, sql.replaceAll('VICTIMS', victims));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(why);
    expect(victimState()).toEqual(before);
    // The views are still there for the next query (nothing dropped).
    expect((await query(index, 'SELECT count(*) AS n FROM rollouts', '--json')).stdout).toBe('[{"n":3}]\n');
  });

  it('says a refusal in one line from the real command too', async () => {
    const r = await cli('query', index, "SELECT * FROM read_text('/etc/passwd')");
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(
      /^trajscope query: refused: Cannot access file "\/etc\/passwd": query reads the index only; --allow-write .*\n$/,
    );
  });

  it('still answers queries, DESCRIBE and EXPLAIN; --allow-write runs what the user means', async () => {
    expect((await query(index, 'DESCRIBE rollouts')).stdout).toMatch(/rollout_id/);
    expect((await query(index, 'EXPLAIN SELECT * FROM groups')).code).toBe(0);
    const out = join(victims, 'copied.csv');
    const w = await query(index, `COPY (SELECT rollout_id FROM rollouts ORDER BY 1) TO '${out}'`, '--allow-write');
    expect(w.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('rollout_id\nr1\nr2\nr3\n');
  });

  it('prints at most --limit rows (10,000 by default) and says it cut, streaming a 5,000,000-row result', async () => {
    const started = Date.now();
    const r = await cli('query', index, 'SELECT * FROM range(5000000)');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    // Header, rule, 10,000 rows, the count.
    expect(lines).toHaveLength(10_003);
    expect(lines.at(-2)?.trim()).toBe('9999');
    expect(lines.at(-1)).toBe('(10,000 rows, cut at --limit)');
    expect(r.stderr).toMatch(/printed the first 10,000 rows; --limit N for more/);
    // Not a timing target: only that it did not run the 5,000,000 rows to the end (that took minutes).
    expect(Date.now() - started).toBeLessThan(60_000);
    const json = await query(index, 'SELECT * FROM range(5000000)', '--json', '--limit', '3');
    expect(JSON.parse(json.stdout)).toEqual([{ range: 0 }, { range: 1 }, { range: 2 }]);
    const csv = await query(index, 'SELECT * FROM range(5)', '--csv', '--limit', '0');
    expect([csv.stdout, csv.stderr]).toEqual(['range\r\n0\r\n1\r\n2\r\n3\r\n4\r\n', '']);
    const empty = await query(index, 'SELECT * FROM range(0)', '--json');
    expect(empty.stdout).toBe('[]\n');
    const bad = await query(index, 'SELECT 1', '--limit=-1');
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/--limit must be a whole number/)]);
  });

  it('the README query still works on the demo run', async () => {
    // A copy: the index is written beside the run, and the committed run stays as committed.
    const demo = join(root, 'demo-run');
    cpSync(join(import.meta.dirname, '../../../public/demo/run'), demo, { recursive: true });
    const r = await query(demo, 'SELECT count(*) AS n FROM rollouts', '--json');
    expect([r.code, r.stdout]).toEqual([0, '[{"n":384}]\n']);
    expect(existsSync(join(demo, '.trajscope/index/manifest.json'))).toBe(true);
  });
});
