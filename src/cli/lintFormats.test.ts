import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { buildRollout, toJsonl } from '../testing/builders';

/* `lint` on files of no known format (exit 2, one line), with a field mapping, and counting unknown terminations. */

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/trajscope.mjs');
const EXAMPLES = join(import.meta.dirname, '../../docs/examples/mapping');
const dir = mkdtempSync(join(tmpdir(), 'trajscope-lint-formats-'));

async function lint(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'lint', ...args], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

function write(name: string, content: string): string {
  writeFileSync(join(dir, name), content);
  return name;
}

describe('trajscope lint: formats', () => {
  it('a file of no known format: exit 2 and one line saying what it looks like and which formats are known', async () => {
    const { code, stdout, stderr } = await lint(
      write('events.jsonl', '{"ts": 1, "event": "start"}\n{"ts": 2, "event": "stop"}\n'),
      '--json',
    );
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^trajscope lint: events\.jsonl: JSON objects with fields "ts", "event" \(2 lines\): not a format Trajscope reads\. Known formats: Trajscope v1, /,
    );
    // Not reported as two broken v1 lines.
    expect(JSON.parse(stdout).parse_errors).toEqual([]);
  });

  it('a v1 file with bad lines keeps today’s behaviour: exit 1, each line its error', async () => {
    const { code, stdout } = await lint(write('v1bad.jsonl', `${toJsonl([buildRollout()])}{"task_id": 1, "segments": []}\n`), '--json');
    expect(code).toBe(1);
    expect(JSON.parse(stdout).parse_errors.map((e: { line: number; code: string }) => [e.line, e.code])).toEqual([[2, 'E_SCHEMA']]);
  });

  it('--map reads a home-grown dump; a mapping that is not valid is exit 2 naming the mapping field', async () => {
    const ok = await lint(join(EXAMPLES, 'agent-runner.jsonl'), '--map', join(EXAMPLES, 'agent-runner.map.json'), '--json');
    expect(ok.code).toBe(0);
    const report = JSON.parse(ok.stdout);
    expect(report.rollouts.map((r: { rollout_id: string; termination: string }) => [r.rollout_id, r.termination])).toEqual([
      ['ep-0007', 'finished'],
      ['ep-0008', 'budget_exhausted'],
      ['ep-0009', 'infra_failure'],
    ]);
    expect(report.groups[0]).toMatchObject({ group_id: 'fizzbuzz-3@qwen3-8b-sft-0412', in_signal: 2, mean: 0.5 });
    const bad = await lint(
      join(EXAMPLES, 'agent-runner.jsonl'),
      '--map',
      write('bad.map.json', '{"status": "outcome", "status_map": {"solved": "win"}}'),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('the mapping bad.map.json is not valid:\n  status_map.solved: expected one of finished, budget_exhausted');
    expect((await lint('x.jsonl', '--from', 'csv')).stderr).toContain('unknown format "csv"');
  });

  it('--unknown-as-finished counts rollouts with no recorded status in group statistics, and says so per rollout', async () => {
    const dump = write(
      '12.jsonl',
      ['{"input":"p","output":"a","score":1,"step":12}', '{"input":"p","output":"b","score":0,"step":12}', ''].join('\n'),
    );
    const map = write('verl.map.json', '{"task_id": "input", "reward": "score", "training_step": "step"}');
    const off = JSON.parse((await lint(dump, '--map', map, '--json')).stdout);
    expect(off.groups).toEqual([expect.objectContaining({ rollouts: 2, in_signal: 0, unknown_termination: 2, mean: null })]);
    expect(off.rollouts.map((r: { in_signal: boolean }) => r.in_signal)).toEqual([false, false]);
    const on = JSON.parse((await lint(dump, '--map', map, '--json', '--unknown-as-finished')).stdout);
    expect(on.groups).toEqual([expect.objectContaining({ rollouts: 2, in_signal: 2, unknown_termination: 2, mean: 0.5 })]);
    expect(on.rollouts.map((r: { in_signal: boolean; counted_as_finished?: boolean }) => [r.in_signal, r.counted_as_finished])).toEqual([
      [true, true],
      [true, true],
    ]);
    // The warning stays: the file still records no status.
    expect(on.rollouts[0].findings.map((f: { code: string }) => f.code)).toContain('W_UNKNOWN_TERMINATION');
  });
});
