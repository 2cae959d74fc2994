import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parseRunManifest } from '../../format/runIndex/manifest';
import { buildRollout } from '../../testing/builders';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../../bin/trajscope.mjs');

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'index', ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('trajscope index (command line)', () => {
  it('refuses a bad option as lint does (exit 2, the flag named) and writes no index', async () => {
    // Issue 30: `index --is-cap 0` wrote an index where `lint --is-cap 0` exited 2.
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-index-cli-'));
    writeFileSync(join(dir, 'a.jsonl'), `${JSON.stringify(buildRollout())}\n`);
    const { code, stderr } = await cli(join(dir, 'a.jsonl'), '--out', join(dir, 'idx'), '--is-cap', '0');
    expect(code).toBe(2);
    expect(stderr).toContain('--is-cap must be a positive number (the importance-ratio cap C, default 2), got "0"');
    expect(existsSync(join(dir, 'idx'))).toBe(false);
  });

  it('indexes the readable files, says which are of no known format, and exits 2 for them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-index-cli-'));
    mkdirSync(join(dir, 'run'));
    writeFileSync(join(dir, 'run', 'step_3.jsonl'), `${JSON.stringify(buildRollout())}\n{"broken\n`);
    writeFileSync(join(dir, 'run', 'notes.jsonl'), '{"hello": "world"}\n');
    const { code, stderr } = await cli(join(dir, 'run'), '--out', join(dir, 'idx'), '--jobs', '2');
    expect(code).toBe(2);
    expect(stderr).toMatch(/notes\.jsonl: .*not a format Trajscope reads/);
    expect(stderr).toMatch(/1 rollout from 2 files \(2 indexed, 0 read on, 0 unchanged; 1 bad line\)/);
    const parsed = parseRunManifest(readFileSync(join(dir, 'idx', 'manifest.json'), 'utf8'));
    if ('error' in parsed) throw new Error(parsed.error);
    expect(parsed.manifest.source_base).toBe('../run');
    expect(parsed.manifest.files.map((f) => [f.file, f.shards.length, f.parse_errors.length])).toEqual([
      ['notes.jsonl', 0, 0],
      ['step_3.jsonl', 1, 1],
    ]);
  });

  it('refuses bad arguments with a message', async () => {
    expect(await cli('x')).toMatchObject({ code: 2, stderr: expect.stringMatching(/--out DIR/) });
    expect(await cli('--out', '/tmp/x')).toMatchObject({ code: 2, stderr: expect.stringMatching(/name a run directory or files/) });
    expect(await cli('/nonexistent-run', '--out', '/tmp/x')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/cannot read \/nonexistent-run: no such file or directory/),
    });
    expect(await cli('.', '--out', '/tmp/x', '--jobs', '0')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--jobs must be a positive whole number/),
    });
  });
});
