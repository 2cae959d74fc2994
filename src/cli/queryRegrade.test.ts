import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { RegradeRow } from '../format';
import { buildRollout } from '../testing/builders';
import { writeTable } from './regrade/table';

/* `trajscope query` over a regrade table: the view `regrade`, found in RUN/.trajscope/regrade or named by --regrade. */

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/trajscope.mjs');

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** Flips: a join on (file, line), counted where the regrade's verdict is not the old one. */
const FLIPS_SQL = `SELECT g.old_verdict || ' → ' || g.new_verdict AS flip, count(*)::INTEGER AS n
  FROM rollouts r JOIN regrade g USING (file, line)
  WHERE g.error_kind IS NULL AND g.new_verdict <> g.old_verdict GROUP BY 1 ORDER BY 1`;

const dir = mkdtempSync(join(tmpdir(), 'trajscope-query-regrade-'));
const runDir = join(dir, 'run');
mkdirSync(runDir);
const rollout = (id: string, reward: number) => JSON.stringify(buildRollout({ rollout_id: id, reward }));
writeFileSync(join(runDir, 'step_1.jsonl'), `${rollout('r1', 0)}\n${rollout('r2', 1)}\n`);
writeFileSync(join(runDir, 'step_2.jsonl'), `${rollout('r3', 0)}\n${rollout('r4', 0)}\n`);

const row = (file: string, line: number, rollout_id: string, o: Partial<RegradeRow>): RegradeRow => ({
  file,
  line,
  rollout_id,
  attempt_id: 'a-1',
  task_id: 'task-1',
  old_reward: 0,
  old_verdict: 'fail',
  new_reward: 0,
  new_verdict: 'fail',
  error_kind: null,
  error: null,
  details: null,
  duration_ms: 1,
  grader: 'node lenient.mjs',
  ...o,
});

describe('trajscope query with a regrade table', () => {
  it('has no view `regrade` before there is a table, and finds RUN/.trajscope/regrade/regrade.parquet by itself', async () => {
    const none = await cli('query', runDir, 'SELECT count(*) FROM regrade');
    expect([none.code, none.stderr]).toEqual([2, expect.stringMatching(/Table with name regrade does not exist/)]);
    mkdirSync(join(runDir, '.trajscope/regrade'), { recursive: true });
    await writeTable(join(runDir, '.trajscope/regrade'), [
      row('step_1.jsonl', 1, 'r1', { new_reward: 1, new_verdict: 'pass' }),
      row('step_1.jsonl', 2, 'r2', { old_reward: 1, old_verdict: 'pass', new_reward: 1, new_verdict: 'pass' }),
      row('step_2.jsonl', 1, 'r3', { new_reward: 1, new_verdict: 'pass' }),
      row('step_2.jsonl', 2, 'r4', { new_reward: null, new_verdict: null, error_kind: 'timeout', error: 'no verdict' }),
    ]);
    const flips = await cli('query', runDir, FLIPS_SQL, '--json');
    expect(flips.stderr).toBe('');
    expect(JSON.parse(flips.stdout)).toEqual([{ flip: 'fail → pass', n: 2 }]);
    // Named through the run's own index too, as `query RUN/.trajscope/index`.
    const viaIndex = await cli('query', join(runDir, '.trajscope/index'), 'SELECT count(*)::INTEGER AS n FROM regrade', '--json');
    expect(JSON.parse(viaIndex.stdout)).toEqual([{ n: 4 }]);
  });

  it('stays read-only: the table is readable, other files are not', async () => {
    const other = await cli('query', runDir, `SELECT * FROM read_csv('${join(dir, 'x.csv')}')`);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/refused|Permission/);
  });

  it('says what is wrong with --regrade: no such directory, a regrade that did not finish', async () => {
    const missing = await cli('query', runDir, 'SELECT 1', '--regrade', join(dir, 'nope'));
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/--regrade .*nope: no such file or directory/)]);
    const half = join(dir, 'half');
    mkdirSync(half);
    writeFileSync(join(half, 'regrade.journal'), '');
    const unfinished = await cli('query', runDir, 'SELECT 1', '--regrade', half);
    expect(unfinished.stderr).toMatch(/has a regrade.journal but no regrade.parquet: the regrade did not finish/);
  });
});

describe('the committed demo run regraded with the lenient grader (scripts/demo-grader-lenient.mjs)', () => {
  it('the flips a join counts are those counted from the records and the table', async () => {
    // The table `trajscope regrade public/demo/run --grader "node $PWD/scripts/demo-grader-lenient.mjs"` wrote.
    const table = resolve('src/analysis/regrade/demo-run-lenient.parquet');
    const bytes = readFileSync(table);
    const rows = (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })) as {
      file: string;
      line: number;
      new_verdict: string | null;
      error_kind: string | null;
    }[];
    const runFiles = resolve('public/demo/run');
    const verdicts = new Map<string, string | null>();
    for (const name of readdirSync(runFiles).filter((n) => n.endsWith('.jsonl.gz')))
      gunzipSync(readFileSync(join(runFiles, name)))
        .toString('utf8')
        .trimEnd()
        .split('\n')
        .forEach((text, i) => {
          verdicts.set(`${name}:${i + 1}`, (JSON.parse(text) as { grading?: { verdict?: string } }).grading?.verdict ?? null);
        });
    expect(rows.length).toBe(verdicts.size);
    const byHand = rows.filter((r) => {
      const old = verdicts.get(`${r.file}:${r.line}`) ?? null;
      return r.error_kind === null && old !== null && r.new_verdict !== null && old !== r.new_verdict;
    }).length;
    const out = await cli('query', resolve('public/demo/run-index'), FLIPS_SQL, '--json', '--regrade', table);
    expect(JSON.parse(out.stdout)).toEqual([{ flip: 'fail → pass', n: byHand }]);
    expect(byHand).toBe(5);
  });
});
