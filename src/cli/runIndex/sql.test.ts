import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { LintReport } from '../../analysis';
import { buildRollout } from '../../testing/builders';
import { buildIndex } from './build';
import { openIndexDb } from './sql';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../../bin/trajscope.mjs');

const r = (id: string, group: string, reward: number | null, over: Record<string, unknown> = {}) =>
  JSON.stringify(buildRollout({ rollout_id: id, group_id: group, reward, ...over }));

/**
 * Groups split across three files (one gzip), with what §6 treats specially: a rollout out of the signal
 * (its reward not counted), a null reward, a group of one, a zero-variance group, an unknown termination.
 */
function splitRun(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-groups-'));
  mkdirSync(join(dir, 'run'));
  const files = {
    'step_0001.jsonl': [r('a1', 'g-a', 1), r('a2', 'g-a', 0), r('b1', 'g-b', 0.25), r('z1', 'g-z', 1), r('u1', 'g-u', 0.5)],
    'step_0002.jsonl.gz': [
      r('a3', 'g-a', 0.5),
      r('b2', 'g-b', 0.75),
      r('z2', 'g-z', 1),
      r('a4', 'g-a', 1, { termination: 'infra_failure', reward: null }),
    ],
    'step_0003.jsonl': [
      r('b3', 'g-b', null),
      r('b4', 'g-b', 0.1),
      r('z3', 'g-z', 1),
      r('s1', 'g-s', 0.3),
      r('u2', 'g-u', 0, { termination: 'unknown' }),
    ],
  };
  for (const [name, lines] of Object.entries(files)) {
    const text = `${lines.join('\n')}\n`;
    writeFileSync(join(dir, 'run', name), name.endsWith('.gz') ? gzipSync(text) : text);
  }
  return join(dir, 'run');
}

async function lintJson(dir: string, ...flags: string[]): Promise<LintReport> {
  const names = ['step_0001.jsonl', 'step_0002.jsonl.gz', 'step_0003.jsonl'];
  const { stdout } = await run(process.execPath, [BIN, 'lint', '--json', ...flags, ...names], { cwd: dir }).catch((e) => e);
  return JSON.parse(stdout) as LintReport;
}

describe('group statistics as a reduction over the index', () => {
  it('equal lint --json (GRPO and Dr. GRPO) for groups split across files', async () => {
    const dir = splitRun();
    const out = join(dir, '..', 'idx');
    const { manifest } = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const c = await openIndexDb(out, manifest);
    const groups = await c.run('SELECT group_id, rollouts, in_signal, unknown_termination, mean, std FROM groups ORDER BY group_id');
    const adv = await c.run('SELECT group_id, rollout_id, advantage, advantage_dr_grpo FROM advantages WHERE advantage IS NOT NULL');
    c.close();
    for (const [flags, column] of [[[], 2] as const, [['--dr-grpo'], 3] as const]) {
      const lint = await lintJson(dir, ...flags);
      expect(lint.groups.length).toBe(5);
      const expected = [...lint.groups].sort((a, b) => (a.group_id < b.group_id ? -1 : 1));
      expect(groups.rows.length).toBe(expected.length);
      expected.forEach((g, i) => {
        const [id, rollouts, inSignal, unknown, mean, std] = groups.rows[i] ?? [];
        expect([id, rollouts, inSignal, unknown]).toEqual([g.group_id, g.rollouts, g.in_signal, g.unknown_termination]);
        for (const [got, want] of [
          [mean, g.mean],
          [std, g.std],
        ] as const) {
          if (want === null) expect(got).toBeNull();
          else expect(got as number).toBeCloseTo(want, 12);
        }
        const mine = Object.fromEntries(adv.rows.filter((a) => a[0] === g.group_id).map((a) => [a[1], a[column]]));
        expect(Object.keys(mine).sort()).toEqual(Object.keys(g.advantages).sort());
        for (const [k, v] of Object.entries(g.advantages)) expect(mine[k] as number).toBeCloseTo(v, 9);
      });
    }
  });

  it('finds duplicates across files and lists the lines that are no rollout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-dups-'));
    writeFileSync(join(dir, 'a.jsonl'), `${r('d1', 'g', 1)}\n{"broken\n`);
    writeFileSync(join(dir, 'b.jsonl'), `${r('d1', 'g', 0)}\n${r('d2', 'g', 0)}\n`);
    const out = join(dir, '.idx');
    const { manifest } = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const c = await openIndexDb(out, manifest);
    expect((await c.run('SELECT file, line FROM duplicates ORDER BY file')).rows).toEqual([
      ['a.jsonl', 1],
      ['b.jsonl', 1],
    ]);
    expect((await c.run('SELECT file, line, code FROM parse_errors')).rows).toEqual([['a.jsonl', 2, 'E_PARSE']]);
    c.close();
  });
});
