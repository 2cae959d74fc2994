import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildRollout, toJsonl } from '../testing/builders';

const BIN = join(import.meta.dirname, '../../bin/trajscope.mjs');
const dir = mkdtempSync(join(tmpdir(), 'trajscope-hostile-'));

/** `trajscope lint ARGS` with `input` piped to its standard input. */
function lint(args: string[], input?: Buffer | string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'lint', ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => {
      stdout += c;
    });
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}
const write = (name: string, content: string | Buffer) => {
  writeFileSync(join(dir, name), content);
  return name;
};
const rollouts = (n: number, prefix = 'r') =>
  Array.from({ length: n }, (_, i) => buildRollout({ rollout_id: `${prefix}-${i}`, reward: i % 2 }));
const summary = (stdout: string) =>
  JSON.parse(stdout) as { summary: { lines: number; rollouts: number; errors: number }; parse_errors: { line: number; message: string }[] };

describe('inputs that must lose only their own line (issue 18)', () => {
  it('5,000-deep nesting inside `sampling` is one E_PARSE; the lines after it load', async () => {
    let deep = '1';
    for (let i = 0; i < 5000; i++) deep = `{"a":${deep}}`;
    const bad = JSON.stringify(buildRollout({ rollout_id: 'deep' })).replace(/}$/, `,"sampling":${deep}}`);
    const text = `${toJsonl(rollouts(3))}${bad}\n${toJsonl(rollouts(3, 'after'))}`;
    const r = await lint(['--json', write('deep.jsonl', text)]);
    expect(r.code).toBe(1);
    const report = summary(r.stdout);
    expect(report.summary).toMatchObject({ lines: 7, rollouts: 6, errors: 1 });
    expect(report.parse_errors).toEqual([
      expect.objectContaining({ line: 4, message: 'nested deeper than 256 levels (the limit for one value)' }),
    ]);
  });

  it('garbage after a gzip member: every line that decompressed, then one error for the garbage', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => ({ ...buildRollout({ rollout_id: `g-${i}` }), pad: 'x'.repeat(500) }));
    const gz = Buffer.concat([gzipSync(toJsonl(lines)), Buffer.from('this is not gzip\n')]);
    const r = await lint(['--json', write('trail.jsonl.gz', gz)]);
    const report = summary(r.stdout);
    expect(report.summary).toMatchObject({ lines: 200, rollouts: 200, errors: 1 });
    expect(report.parse_errors).toHaveLength(1);
    expect(report.parse_errors[0]?.line).toBe(201);
    expect(report.parse_errors[0]?.message).toMatch(/stop being gzip data/);
    expect(r.code).toBe(1);
  });

  it('a line past --max-line-bytes is one error and the next line loads', async () => {
    const text = toJsonl([
      buildRollout({ rollout_id: 'a' }),
      { ...buildRollout({ rollout_id: 'huge' }), pad: 'x'.repeat(5000) },
      buildRollout({ rollout_id: 'b' }),
    ]);
    const r = await lint(['--json', '--max-line-bytes', '4000', write('long.jsonl', text)]);
    const report = summary(r.stdout);
    expect(report.summary).toMatchObject({ lines: 3, rollouts: 2, errors: 1 });
    expect(report.parse_errors).toEqual([
      expect.objectContaining({ line: 2, message: 'line is longer than 4,000 bytes (the line limit; skipped unread)' }),
    ]);
    expect((await lint(['--max-line-bytes', 'lots', 'long.jsonl'])).code).toBe(2);
  });

  it('reads standard input as `-` and as /dev/stdin from a pipe, plain or gzip', async () => {
    const text = toJsonl(rollouts(4));
    for (const [name, input] of [
      ['-', text],
      ['/dev/stdin', text],
      ['-', gzipSync(text)],
    ] as const) {
      const r = await lint(['--json', name], input);
      expect([name, r.stderr, summary(r.stdout).summary.rollouts]).toEqual([name, '', 4]);
    }
  });

  it('a rollout_id "__proto__" gets its advantage like any other id', async () => {
    const group = [
      buildRollout({ rollout_id: '__proto__', group_id: 'g', reward: 1 }),
      buildRollout({ rollout_id: 'constructor', group_id: 'g', reward: 0 }),
    ];
    const r = await lint(['--json', write('proto.jsonl', toJsonl(group))]);
    const g = (JSON.parse(r.stdout) as { groups: { group_id: string; advantages: Record<string, number> }[] }).groups.find(
      (x) => x.group_id === 'g',
    );
    expect(Object.keys(g?.advantages ?? {}).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(g?.advantages, '__proto__')?.value).toBeGreaterThan(0);
  });

  it('an internal failure is exit 2 with a message, never 1', async () => {
    // A file that makes `lint` itself fail: --json to a closed pipe is not it; a report it cannot build is.
    // Simulated at the seam the crash came through: the report writer throws as V8 does past its longest string.
    const { runLint } = await import('./lint');
    const { LintSession } = await import('../analysis');
    const original = LintSession.prototype.report;
    LintSession.prototype.report = () => {
      throw new RangeError('Invalid string length');
    };
    const errors: string[] = [];
    const writeErr = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((s: string) => errors.push(String(s)) > 0) as typeof process.stderr.write;
    try {
      expect(await runLint([join(dir, write('ok.jsonl', toJsonl(rollouts(1))))])).toBe(2);
    } finally {
      LintSession.prototype.report = original;
      process.stderr.write = writeErr;
    }
    expect(errors.join('')).toContain('trajscope lint: internal error: Invalid string length');
  });
});
