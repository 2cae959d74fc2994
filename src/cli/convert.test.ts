import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseLine } from '../format';
import { runConvert } from './convert';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/trajscope.mjs');
const dir = mkdtempSync(join(tmpdir(), 'trajscope-convert-'));
cpSync(join(ROOT, 'src/format/adapters/fixtures'), dir, { recursive: true, filter: (src) => !src.endsWith('.ts') });

/** Every fixture, as paths relative to `dir` (the CLI runs there, so rollout ids built from paths are stable). */
const INPUTS = [
  'verifiers-eval/results.jsonl',
  'verifiers-v1/traces.jsonl',
  'rllm/episode_000000_gsm8k_42.json',
  'rllm/episodes.json',
  'swe-agent/django__django-11099.traj',
  'swe-agent/astropy__astropy-12907.traj',
  'openai-chat.jsonl',
];

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd: dir, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** runConvert in this process, from `dir`, with stderr captured. */
async function convert(...args: string[]): Promise<{ code: number; stderr: string }> {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    chunks.push(String(s));
    return true;
  });
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    return { code: await runConvert(args), stderr: chunks.join('') };
  } finally {
    process.chdir(cwd);
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

interface Summary {
  rollout_id: string;
  task_id: string;
  termination: string;
  reward: number | null;
  findings: { code: string }[];
}

/** What lint reports about a rollout, without where it was read from. */
const verdict = (r: Summary) => ({
  rollout_id: r.rollout_id,
  task_id: r.task_id,
  termination: r.termination,
  reward: r.reward,
  codes: r.findings.map((f) => f.code),
});

describe('trajscope convert', () => {
  it('writes every fixture as v1 lines that load, in input order, and says how it read each file', async () => {
    const { code, stderr } = await convert(...INPUTS, '--out', 'all.jsonl');
    expect(code).toBe(0);
    const lines = readFileSync(join(dir, 'all.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(18);
    lines.forEach((line, i) => {
      expect(parseLine(line, i + 1, 'all.jsonl')?.kind).toBe('rollout');
    });
    expect(lines.map((l) => JSON.parse(l).source_format)).toEqual([
      ...Array(4).fill('verifiers-results'),
      ...Array(5).fill('verifiers-traces'),
      ...Array(3).fill('rllm-episode'),
      ...Array(3).fill('swe-agent-traj'),
      ...Array(3).fill('openai-chat'),
    ]);
    expect(stderr).toContain('verifiers-eval/results.jsonl: read as verifiers results.jsonl, with the metadata.json beside it');
    expect(stderr).toContain('swe-agent/django__django-11099.traj: read as SWE-agent .traj');
    expect(stderr).toContain('wrote 18 rollouts to all.jsonl; 0 lines failed to convert');
  });

  it('the converted file passes `trajscope lint` with only the findings the sources explain', async () => {
    await convert(...INPUTS, '--out', 'lint-me.jsonl');
    const { code, stdout } = await cli('lint', 'lint-me.jsonl', '--json');
    const report = JSON.parse(stdout);
    expect(report.parse_errors).toEqual([]);
    expect(report.summary.rollouts).toBe(18);
    const byId = new Map<string, ReturnType<typeof verdict>>(report.rollouts.map((r: Summary) => [r.rollout_id, verdict(r)]));
    const codes = (id: string) => byId.get(id)?.codes.filter((c) => c !== 'W_MISSING_METADATA');
    // No source records tokenizer, chat template and grader versions together.
    for (const r of byId.values()) expect(r.codes).toContain('W_MISSING_METADATA');
    expect(codes('verifiers-eval/results.jsonl:1')).toEqual([]);
    // Two parallel calls in one generation: both are listed in tool_call_ids and both join their steps.
    expect(codes('verifiers-eval/results.jsonl:2')).toEqual([]);
    expect(codes('verifiers-eval/results.jsonl:4')).toEqual(['W_UNKNOWN_TERMINATION']);
    expect(codes('3f2a9c0e5b7d4e1f')).toEqual([]);
    expect(codes('8d0c1b2a3e4f5a6b')).toEqual(['W_CONTEXT_REWRITTEN']);
    expect(codes('5e5e5e5e00000001')).toEqual(['W_UNKNOWN_TERMINATION']);
    expect(codes('9f8e7d6c-0001')).toEqual([]);
    expect(codes('9f8e7d6c-0003')).toEqual(['W_UNKNOWN_TERMINATION']);
    // SWE-agent does not grade: a finished or budget-exhausted attempt has no reward.
    expect(codes('swe-agent/django__django-11099.traj:1')).toEqual(['E_REWARD_MISSING']);
    expect(codes('swe-agent/astropy__astropy-12907.traj:1/attempts[1]')).toEqual(['E_REWARD_MISSING']);
    const allowed = new Set(['W_MISSING_METADATA', 'W_UNKNOWN_TERMINATION', 'W_CONTEXT_REWRITTEN', 'E_REWARD_MISSING']);
    for (const r of byId.values()) for (const c of r.codes) expect(allowed).toContain(c);
    // The one group finding: an episode that produced no trace records no sampling config.
    expect(
      report.groups.flatMap((g: { group_id: string; findings: { code: string }[] }) => g.findings.map((f) => [g.group_id, f.code])),
    ).toEqual([['g-7', 'W_GROUP_MIXED_SAMPLING']]);
    expect(code).toBe(1);
  });

  it('`trajscope lint` reads the source formats directly, with the same verdicts as on the converted file', async () => {
    await convert(...INPUTS, '--out', 'same.jsonl');
    const direct = JSON.parse((await cli('lint', ...INPUTS, '--json')).stdout);
    const converted = JSON.parse((await cli('lint', 'same.jsonl', '--json')).stdout);
    expect(direct.parse_errors).toEqual([]);
    expect(direct.rollouts.map(verdict)).toEqual(converted.rollouts.map(verdict));
    expect(direct.groups).toEqual(converted.groups);
    expect(direct.rollouts[0]).toMatchObject({ file: 'verifiers-eval/results.jsonl', line: 1, task_id: 'calc-tools/0' });
  });

  it('exit 1 when a line fails to convert: the rest is written, the failure is on stderr as file:line', async () => {
    const good = readFileSync(join(dir, 'openai-chat.jsonl'), 'utf8').split('\n')[0];
    writeFileSync(join(dir, 'partly.jsonl'), `${good}\n{"messages": "none"}\n{oops\n${good}\n`);
    const { code, stderr } = await convert('partly.jsonl', '--out', 'partly-out.jsonl');
    expect(code).toBe(1);
    expect(readFileSync(join(dir, 'partly-out.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(stderr).toContain('partly.jsonl:2: E_SCHEMA OpenAI-style chat JSONL: messages: expected an array of chat messages');
    expect(stderr).toMatch(/partly\.jsonl:3: E_PARSE not valid JSON/);
  });

  it('exit 2 on an unreadable input, still converting the others', async () => {
    const { code, stderr } = await convert('missing.jsonl', 'openai-chat.jsonl', '--out', 'some.jsonl');
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read missing.jsonl: no such file');
    expect(readFileSync(join(dir, 'some.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(3);
  });

  it.each([
    [['openai-chat.jsonl'], 'name the output file with --out'],
    [['--out', 'x.jsonl'], 'name at least one input file'],
    [['--from', 'csv', 'openai-chat.jsonl', '--out', 'x.jsonl'], '--from must be auto or a format name ('],
    [['openai-chat.jsonl', '--out', 'openai-chat.jsonl'], 'is also an input'],
    [['--frm', 'auto', 'openai-chat.jsonl', '--out', 'x.jsonl'], "Unknown option '--frm'"],
  ])('exit 2 on bad arguments %j', async (args, message) => {
    const { code, stderr } = await convert(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('--from forces a format', async () => {
    const { code, stderr } = await convert('--from', 'openai-chat', 'verifiers-eval/results.jsonl', '--out', 'forced.jsonl');
    expect(code).toBe(1);
    expect(stderr).toContain('verifiers-eval/results.jsonl:1: E_SCHEMA OpenAI-style chat JSONL: messages: expected an array');
  });
});

describe('trajscope convert (subprocess)', () => {
  it('`node bin/trajscope.mjs convert` writes the same file as runConvert, then lints', async () => {
    await convert(...INPUTS, '--out', 'in-process.jsonl');
    const { code, stderr } = await cli('convert', ...INPUTS, '--out', 'subprocess.jsonl');
    expect(code).toBe(0);
    expect(stderr).toContain('wrote 18 rollouts to subprocess.jsonl');
    expect(readFileSync(join(dir, 'subprocess.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'in-process.jsonl'), 'utf8'));
    const lint = await cli('lint', 'subprocess.jsonl', '--json');
    expect(JSON.parse(lint.stdout).summary).toMatchObject({ rollouts: 18, errors: 3 });
  });
});
