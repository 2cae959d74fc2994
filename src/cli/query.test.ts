import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';

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

const dir = mkdtempSync(join(tmpdir(), 'trajscope-query-'));
const runDir = join(dir, 'run');
mkdirSync(runDir);
const line = (id: string, reward: number, prompt = 'p') => JSON.stringify(buildRollout({ rollout_id: id, reward, task: { prompt } }));
writeFileSync(join(runDir, 'step_1.jsonl'), `${line('r1', 1)}\n${line('r2', 0)}\n`);
writeFileSync(join(runDir, 'step_2.jsonl'), `${line('r3', 0.5, 'a, "quoted"\nprompt')}\n`);

describe('trajscope query', () => {
  it('indexes a run directory first (into RUN/.trajscope/index) and prints an aligned table', async () => {
    const { code, stdout, stderr } = await cli(
      'query',
      runDir,
      'SELECT training_step, count(*) AS n, avg(reward) AS mean FROM rollouts GROUP BY 1 ORDER BY 1',
    );
    expect(code).toBe(0);
    expect(stderr).toMatch(/indexed .* into .*\.trajscope\/index/);
    expect(existsSync(join(runDir, '.trajscope/index/manifest.json'))).toBe(true);
    expect(stdout).toBe(
      ['training_step  n  mean', '-------------  -  ----', '            1  2   0.5', '            2  1   0.5', '(2 rows)', ''].join('\n'),
    );
  });

  it('prints --json and --csv, quoting as CSV must', async () => {
    const index = join(runDir, '.trajscope/index');
    const json = await cli('query', index, "SELECT rollout_id, reward, finding_codes FROM rollouts WHERE rollout_id = 'r1'", '--json');
    expect(JSON.parse(json.stdout)).toEqual([{ rollout_id: 'r1', reward: 1, finding_codes: [] }]);
    const csv = await cli('query', index, 'SELECT rollout_id, \'a, "b"\' AS t FROM rollouts ORDER BY rollout_id LIMIT 1', '--csv');
    expect(csv.stdout).toBe('rollout_id,t\r\nr1,"a, ""b"""\r\n');
  });

  it('says what is wrong with bad SQL, a missing path and a directory that is no run', async () => {
    const bad = await cli('query', runDir, 'SELEC 1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/the SQL failed: Parser Error: syntax error at or near "SELEC"/);
    const table = await cli('query', runDir, 'SELECT * FROM rollout');
    expect(table.stderr).toMatch(/Table with name rollout does not exist/);
    const missing = await cli('query', join(dir, 'nope'), 'SELECT 1');
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/cannot read .*nope: no such file or directory/)]);
    mkdirSync(join(dir, 'empty'));
    const empty = await cli('query', join(dir, 'empty'), 'SELECT 1');
    expect([empty.code, empty.stderr]).toEqual([
      2,
      expect.stringMatching(/is neither a run index \(no manifest.json\) nor a run directory/),
    ]);
  });
});
