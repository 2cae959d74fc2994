import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { regrade } from './regrade';
import { UnsafeArtifactName, writeArtifactFiles } from './regrade/artifact';
import { summarizeRows } from './regrade/rows';
import { JOURNAL_FILE, TABLE_FILE } from './regrade/table';

const DEMO = resolve('public/demo/rollouts.jsonl');
const BIN = resolve('bin/trajscope.mjs');
const demoInput = [{ path: DEMO, file: 'rollouts.jsonl' }];
const DEMO_LINES = readFileSync(DEMO, 'utf8').split('\n').filter(Boolean);
const temp = (name: string) => mkdtempSync(join(tmpdir(), `trajscope-regrade-${name}-`));

/** A small source of demo lines (1-based), each changed by `edit`. */
function fixture(lines: number[], edit: (r: Record<string, unknown>) => void = () => {}): { path: string; file: string }[] {
  const dir = temp('src');
  const path = join(dir, 'few.jsonl');
  const text = lines.map((n) => {
    const r = JSON.parse(DEMO_LINES[n - 1] ?? 'null');
    edit(r);
    return JSON.stringify(r);
  });
  writeFileSync(path, `${text.join('\n')}\n`);
  return [{ path, file: 'few.jsonl' }];
}

async function tableOf(dir: string): Promise<Record<string, unknown>[]> {
  const b = readFileSync(join(dir, TABLE_FILE));
  return parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) });
}

const REAL = `node ${resolve('scripts/demo-grader.mjs')}`;
const LENIENT = `node ${resolve('scripts/demo-grader-lenient.mjs')}`;

describe('trajscope regrade with the demo graders', () => {
  it('the real demo grader reproduces every stored verdict; rollouts with no artifact are errors', async () => {
    const out = temp('real');
    const before = readFileSync(DEMO);
    const r = await regrade({ inputs: demoInput, grader: REAL, out, jobs: 2, timeoutMs: 60_000 });
    const s = summarizeRows(r.rows);
    // 44 lines: 38 finished with a stored patch; budget, invalid call (2), infra (2) and cancelled have none.
    expect(r.rows).toHaveLength(44);
    expect(s.graded).toBe(38);
    expect(s.agree).toBe(38);
    expect(s.flips.size).toBe(0);
    expect([...s.errors]).toEqual([['no_artifact', 6]]);
    expect(r.rows.filter((x) => x.error_kind === null).every((x) => x.new_reward === x.old_reward)).toBe(true);
    const rows = await tableOf(out);
    expect(rows).toHaveLength(44);
    expect(rows[2]).toMatchObject({ line: 3, rollout_id: 'r-budget', error: 'no artifact stored', new_verdict: null });
    expect(rows[0]).toMatchObject({
      file: 'rollouts.jsonl',
      line: 1,
      old_verdict: 'pass',
      new_verdict: 'pass',
      new_reward: 1,
      grader: REAL,
    });
    expect(readFileSync(DEMO).equals(before)).toBe(true);
  }, 120_000);

  it('the lenient variant passes the two rollouts whose patch hangs (r-g1-02, r-g1-07)', async () => {
    // By hand: the only stored failures whose every failed private test is a hang (over the line budget)
    // are the two rollouts with artifact sha256:4a1f156f (`high = mid` left in place: the search never ends); every other failure
    // has a wrong answer too. Only the g1 group and one of r-g4 are read to keep this short.
    const inputs = fixture([13, 14, 15, 19, 37]);
    const r = await regrade({ inputs, grader: LENIENT, out: temp('lenient'), jobs: 2, timeoutMs: 60_000 });
    const flipped = r.rows.filter((x) => x.old_verdict !== x.new_verdict).map((x) => x.rollout_id);
    expect(flipped.sort()).toEqual(['r-g1-02', 'r-g1-07']);
    expect([...summarizeRows(r.rows).flips]).toEqual([['fail → pass', 2]]);
  }, 120_000);
});

describe('trajscope regrade with graders that fail', () => {
  const ok = `echo '{"reward": 1, "verdict": "pass"}'`;

  it('a grader that hangs is killed at the timeout (its process group) and the others are graded', async () => {
    const grader = `if [ "$TRAJSCOPE_ROLLOUT_ID" = r-article ]; then sleep 30; sleep 30; fi; ${ok}`;
    const t0 = Date.now();
    const r = await regrade({ inputs: fixture([1, 6, 10]), grader, out: temp('hang'), jobs: 2, timeoutMs: 700 });
    expect(Date.now() - t0).toBeLessThan(10_000);
    const byId = new Map(r.rows.map((x) => [x.rollout_id, x]));
    expect(byId.get('r-article')).toMatchObject({ error_kind: 'timeout', new_reward: null });
    expect(byId.get('r-infra')).toMatchObject({ error_kind: null, new_reward: 1, new_verdict: 'pass' });
    expect(byId.get('r-retry')).toMatchObject({ error_kind: null, new_verdict: 'pass' });
  });

  it('a crash (non-zero exit) and garbage output are recorded errors; task in env and on stdin', async () => {
    const grader = [
      `input=$(cat)`,
      `case "$TRAJSCOPE_ROLLOUT_ID" in r-article) echo boom >&2; exit 3;; r-infra) echo 'not json';; *)`,
      `  test -f artifact.patch && echo "$input" | grep -q '"task_id":"binary-search-001"' && [ "$TRAJSCOPE_TASK_ID" = binary-search-001 ] && echo '{"reward": 0.5, "details": {"n": 1}}';;`,
      `esac`,
    ].join('\n');
    const r = await regrade({ inputs: fixture([1, 6, 10]), grader, out: temp('bad'), jobs: 1, timeoutMs: 10_000 });
    const byId = new Map(r.rows.map((x) => [x.rollout_id, x]));
    expect(byId.get('r-article')).toMatchObject({ error_kind: 'crash', error: 'exited 3: boom' });
    expect(byId.get('r-infra')).toMatchObject({ error_kind: 'garbage' });
    expect(byId.get('r-retry')).toMatchObject({ error_kind: null, new_reward: 0.5, new_verdict: null, details: '{"n":1}' });
    expect([...summarizeRows(r.rows).flips]).toEqual([['reward 0 → reward 0.5', 1]]);
  });

  it('10 MB of non-JSON output is a garbage error on that rollout, cut at the output limit, and the others are graded', async () => {
    const grader = `if [ "$TRAJSCOPE_ROLLOUT_ID" = r-article ]; then head -c 10485760 /dev/zero | tr '\\0' x; exit 0; fi; ${ok}`;
    const r = await regrade({ inputs: fixture([1, 6]), grader, out: temp('flood'), jobs: 2, timeoutMs: 20_000 });
    const byId = new Map(r.rows.map((x) => [x.rollout_id, x]));
    expect(byId.get('r-article')).toMatchObject({ error_kind: 'garbage', new_reward: null });
    expect((byId.get('r-article')?.error ?? '').length).toBeLessThan(2_000);
    expect(byId.get('r-infra')).toMatchObject({ error_kind: null, new_reward: 1 });
  });

  it('an artifact whose recorded digest is not its own is not graded', async () => {
    const inputs = fixture([1], (rec) => {
      (rec.grading as Record<string, unknown>).artifact_digest = `sha256:${'0'.repeat(64)}`;
    });
    const r = await regrade({ inputs, grader: ok, out: temp('digest'), jobs: 1, timeoutMs: 10_000 });
    expect(r.rows[0]).toMatchObject({ error_kind: 'digest_mismatch' });
  });
});

describe('trajscope regrade resumes', () => {
  it('after kill -9 of the command half way: the journal keeps what was graded, and a rerun grades only the rest', async () => {
    const out = temp('kill9');
    const log = join(temp('log9'), 'graded.log');
    // Each rollout takes a moment, so the kill lands with some graded and some not.
    const grader = `echo "$TRAJSCOPE_ROLLOUT_ID" >> ${log}; sleep 0.3; echo '{"reward": 1}'`;
    const inputs = fixture([1, 2, 6, 9, 10, 11]);
    const args = [BIN, 'regrade', ...inputs.map((i) => i.path), '--grader', grader, '--out', out, '--jobs', '1'];
    const child = spawn(process.execPath, args, { stdio: 'ignore' });
    const journal = join(out, JOURNAL_FILE);
    const journalLines = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').filter(Boolean).length : 0);
    for (let i = 0; i < 200 && journalLines() < 2; i++) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const kept = journalLines();
    expect(kept).toBeGreaterThanOrEqual(2);
    expect(kept).toBeLessThan(6);
    expect(existsSync(join(out, TABLE_FILE))).toBe(false);
    // The same command again, run to its end.
    const rerun = spawn(process.execPath, args, { stdio: 'ignore' });
    expect(await new Promise((r) => rerun.once('exit', r))).toBe(0);
    expect(journalLines()).toBe(6);
    expect(await tableOf(out)).toHaveLength(6);
    // Nothing lost: every rollout is in the table once; the one running at the kill may have been started twice.
    const graded = new Set(readFileSync(log, 'utf8').trim().split('\n'));
    expect(graded.size).toBe(6);
  });

  it('an interrupted regrade goes on where it stopped: each rollout graded once', async () => {
    const out = temp('resume');
    const log = join(temp('log'), 'graded.log');
    const grader = `echo "$TRAJSCOPE_ROLLOUT_ID" >> ${log}; echo '{"reward": 1}'`;
    const inputs = fixture([1, 2, 6, 9, 10, 11]);
    const controller = new AbortController();
    let n = 0;
    const first = await regrade({
      inputs,
      grader,
      out,
      jobs: 1,
      timeoutMs: 10_000,
      signal: controller.signal,
      onRow: () => {
        if (++n === 2) controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.rows).toHaveLength(2);
    expect(existsSync(join(out, TABLE_FILE))).toBe(false);
    // A line cut short by the interruption is skipped when read back.
    writeFileSync(join(out, JOURNAL_FILE), `${readFileSync(join(out, JOURNAL_FILE), 'utf8')}{"file":"few.js`);
    const second = await regrade({ inputs, grader, out, jobs: 2, timeoutMs: 10_000 });
    expect(second.skipped).toBe(2);
    expect(second.rows).toHaveLength(4);
    const graded = readFileSync(log, 'utf8').trim().split('\n').sort();
    expect(graded).toEqual(['r-article', 'r-compacted', 'r-infra', 'r-regression', 'r-retokenized', 'r-retry']);
    expect(await tableOf(out)).toHaveLength(6);
    // Another grader in the same DIR is run anew; the table holds both, keyed by grader.
    const third = await regrade({ inputs, grader: `${grader} # v2`, out, jobs: 2, timeoutMs: 10_000 });
    expect(third.skipped).toBe(0);
    expect(await tableOf(out)).toHaveLength(12);
  });
});

describe('writeArtifactFiles', () => {
  it('refuses a name that leaves the directory, an absolute one and a planted link, writing nothing outside', async () => {
    const root = temp('hostile');
    const dir = join(root, 'grader');
    mkdirSync(dir);
    await expect(writeArtifactFiles(dir, [{ name: '../x', text: 'owned' }])).rejects.toBeInstanceOf(UnsafeArtifactName);
    expect(existsSync(join(root, 'x'))).toBe(false);
    const abs = join(root, 'abs');
    await expect(
      writeArtifactFiles(dir, [
        { name: 'ok.txt', text: 'fine' },
        { name: abs, text: 'owned' },
      ]),
    ).rejects.toThrow(/is absolute/);
    expect(existsSync(abs)).toBe(false);
    // Every name is checked before any file is written.
    expect(existsSync(join(dir, 'ok.txt'))).toBe(false);
    const outside = join(root, 'outside');
    mkdirSync(outside);
    symlinkSync(outside, join(dir, 'sub'));
    await expect(writeArtifactFiles(dir, [{ name: 'sub/f', text: 'owned' }])).rejects.toThrow(/non-directory/);
    symlinkSync(join(outside, 'target'), join(dir, 'link'));
    await expect(writeArtifactFiles(dir, [{ name: 'link', text: 'owned' }])).rejects.toThrow();
    expect(existsSync(join(outside, 'f'))).toBe(false);
    expect(existsSync(join(outside, 'target'))).toBe(false);
    await writeArtifactFiles(dir, [{ name: 'a/b/c.patch', text: 'diff' }]);
    expect(readFileSync(join(dir, 'a/b/c.patch'), 'utf8')).toBe('diff');
  });
});
