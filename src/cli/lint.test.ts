import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rolloutMismatch } from '../analysis';
import { buildChain, buildRollout, MINIMAL_RECORD_LINE, toJsonl } from '../testing/builders';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/trajscope.mjs');
const dir = mkdtempSync(join(tmpdir(), 'trajscope-lint-'));
const EXAMPLES = join(import.meta.dirname, '../../docs/examples/mapping');

async function lint(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'lint', ...args], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

function write(name: string, content: string | Buffer): string {
  writeFileSync(join(dir, name), content);
  return name;
}

const edit = (old: string, neu: string) => ({ tool: 'edit', args: { path: 'search.py', old, new: neu }, observation: { status: 'ok' } });
const tests = (passed: string[], over_budget: string[] = []) => ({
  tool: 'run_tests',
  args: {},
  tests: { passed, failed: [], over_budget },
});

/** One file mixing the spec's cases: every line's expected lint output is written out by hand below. */
const MIXED = toJsonl([
  MINIMAL_RECORD_LINE,
  '{"task_id": "t", "rollout_id": ',
  buildRollout({
    task_id: 'bs',
    rollout_id: 'r-1',
    reward: 0,
    ...buildChain([
      edit('low = mid', 'low = mid + 1'),
      tests(['find 3', 'find 6']),
      edit('low = mid + 1', 'low = mid'),
      tests(['find 3'], ['find 6']),
    ]),
  }),
  '',
  buildRollout({ task_id: 'bs', rollout_id: 'r-2', reward: 1 }),
  buildRollout({ task_id: 'bs', rollout_id: 'r-3', termination: 'infra_failure', reward: null }),
  '[1, 2, 3]',
  buildRollout({ task_id: 'bs', rollout_id: 'r-2', reward: 1 }),
  { task_id: 'bs', segments: [], termination: 'finished', reward: 1 },
  buildRollout({ task_id: 'solo', rollout_id: 's-1', termination: 'cancelled', reward: 0 }),
]);

describe('trajscope lint (subprocess)', () => {
  it('--json on a mixed file matches the spec field for field', async () => {
    const file = write('mixed.jsonl', MIXED);
    const { code, stdout } = await lint(file, '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(['summary', 'parse_errors', 'rollouts', 'groups']);
    expect(report.summary).toEqual({ lines: 10, rollouts: 6, errors: 6, warnings: 1 });
    expect(report.parse_errors).toEqual([
      { file, line: 2, code: 'E_PARSE', message: expect.stringContaining('not valid JSON') },
      { file, line: 7, code: 'E_PARSE', message: 'expected a JSON object, got an array' },
      { file, line: 9, code: 'E_SCHEMA', message: 'rollout_id: required field is missing' },
    ]);
    const meta = { code: 'W_MISSING_METADATA', severity: 'warning', segment: null, step: null, message: expect.any(String) };
    const dup = { code: 'E_DUPLICATE_ROLLOUT', severity: 'error', segment: null, step: null, message: expect.any(String) };
    expect(report.rollouts).toEqual([
      {
        file,
        line: 1,
        task_id: 'binary-search-001',
        rollout_id: 'r-003',
        attempt_id: 'a-001',
        group_id: 'binary-search-001@v-012',
        termination: 'finished',
        in_signal: true,
        reward: 1,
        steps: 0,
        regressions: [],
        findings: [meta],
      },
      {
        file,
        line: 3,
        task_id: 'bs',
        rollout_id: 'r-1',
        attempt_id: 'a-1',
        group_id: 'bs@v-1',
        termination: 'finished',
        in_signal: true,
        reward: 0,
        steps: 4,
        regressions: [
          { step: 3, kind: 'revert', of_step: 1 },
          { step: 3, kind: 'test', tests: ['find 6'] },
        ],
        findings: [],
      },
      {
        file,
        line: 5,
        task_id: 'bs',
        rollout_id: 'r-2',
        attempt_id: 'a-1',
        group_id: 'bs@v-1',
        termination: 'finished',
        in_signal: true,
        reward: 1,
        steps: 0,
        regressions: [],
        findings: [dup],
      },
      {
        file,
        line: 6,
        task_id: 'bs',
        rollout_id: 'r-3',
        attempt_id: 'a-1',
        group_id: 'bs@v-1',
        termination: 'infra_failure',
        in_signal: false,
        reward: null,
        steps: 0,
        regressions: [],
        findings: [],
      },
      {
        file,
        line: 8,
        task_id: 'bs',
        rollout_id: 'r-2',
        attempt_id: 'a-1',
        group_id: 'bs@v-1',
        termination: 'finished',
        in_signal: true,
        reward: 1,
        steps: 0,
        regressions: [],
        findings: [dup],
      },
      {
        file,
        line: 10,
        task_id: 'solo',
        rollout_id: 's-1',
        attempt_id: 'a-1',
        group_id: 'solo@v-1',
        termination: 'cancelled',
        in_signal: false,
        reward: 0,
        steps: 0,
        regressions: [],
        findings: [{ code: 'E_EXCLUDED_HAS_REWARD', severity: 'error', segment: null, step: null, message: expect.any(String) }],
      },
    ]);
    // bs@v-1 in signal: r-1 (0), r-2 (1), r-2 again (1): mean 2/3, std sqrt(1/3).
    const std = Math.sqrt(1 / 3);
    expect(report.groups).toEqual([
      {
        group_id: 'binary-search-001@v-012',
        rollouts: 1,
        in_signal: 1,
        unknown_termination: 0,
        mean: 1,
        std: null,
        advantages: { 'r-003': 0 },
        findings: [],
      },
      {
        group_id: 'bs@v-1',
        rollouts: 4,
        in_signal: 3,
        unknown_termination: 0,
        mean: expect.closeTo(2 / 3, 12),
        std: expect.closeTo(std, 12),
        advantages: {
          'r-1': expect.closeTo(-(2 / 3) / std, 5),
          'r-2#a-1': expect.closeTo(1 / 3 / std, 5),
          'r-2#a-1#2': expect.closeTo(1 / 3 / std, 5),
        },
        findings: [],
      },
      { group_id: 'solo@v-1', rollouts: 1, in_signal: 0, unknown_termination: 0, mean: null, std: null, advantages: {}, findings: [] },
    ]);
  });

  it('exit 0 on a clean file, and the same result through gzip', async () => {
    const clean = toJsonl([buildRollout({ rollout_id: 'a', reward: 1 }), buildRollout({ rollout_id: 'b', reward: 0 })]);
    const plain = await lint(write('clean.jsonl', clean), '--json');
    expect(plain.code).toBe(0);
    const gz = await lint(write('clean.jsonl.gz', gzipSync(clean)), '--json');
    expect(gz.code).toBe(0);
    expect(JSON.parse(gz.stdout).rollouts.map((r: { rollout_id: string }) => r.rollout_id)).toEqual(['a', 'b']);
  });

  it('exit 2 with a clear message when a file cannot be read, still reporting the others', async () => {
    const ok = write('ok.jsonl', toJsonl([buildRollout()]));
    const { code, stdout, stderr } = await lint('missing.jsonl', ok, '--json');
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read missing.jsonl: no such file');
    expect(JSON.parse(stdout).summary.rollouts).toBe(1);
  });

  it('exit 2 on a corrupt gzip stream', async () => {
    const bad = Buffer.concat([gzipSync(toJsonl([buildRollout()])).subarray(0, 20), Buffer.from('garbage')]);
    const { code, stderr } = await lint(write('bad.jsonl.gz', bad));
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read bad.jsonl.gz');
  });

  it('prints a readable summary without --json: terminations, findings by code, groups needing a look', async () => {
    const { code, stdout } = await lint(write('mixed2.jsonl', MIXED));
    expect(code).toBe(1);
    expect(stdout).toContain('10 lines, 6 rollouts, 6 errors, 1 warning');
    expect(stdout).toMatch(/terminations:\n\s+finished\s+4\s+in signal/);
    expect(stdout).toMatch(/E_DUPLICATE_ROLLOUT\s+2/);
    expect(stdout).toContain('groups needing a look:');
  });

  it('says how many groups needing a look it left out of the readable summary', async () => {
    // Seven zero-variance groups: the summary shows five and counts the rest.
    const records = Array.from({ length: 14 }, (_, i) => buildRollout({ rollout_id: `r-${i}`, task_id: `t-${i % 7}`, reward: 1 }));
    const { stdout } = await lint(write('seven.jsonl', toJsonl(records)));
    expect(stdout).toContain('groups needing a look (the 5 worst of 7):');
    expect(stdout).toContain('… and 2 more groups');
    expect(stdout.match(/^ {2}t-\d@/gm)).toHaveLength(5);
  });

  it('rejects a bad option with exit 2', async () => {
    expect((await lint('--drift-threshold', 'abc', 'x.jsonl')).code).toBe(2);
    // Every value the flag refuses is in readOptions.test.ts; here, that lint refuses with exit 2.
    const { code, stderr } = await lint('--is-cap=0', write('cap.jsonl', `${MINIMAL_RECORD_LINE}\n`));
    expect(code).toBe(2);
    expect(stderr).toContain('--is-cap must be a positive number (the importance-ratio cap C, default 2), got "0"');
    expect((await lint()).code).toBe(2);
  });
});

/*
 * §10 in lint: one rollout with a training record whose trainer differs at two of its three generated tokens
 * (d = 0.7, 0, -0.4, the hand-computed case of mismatch.test.ts), one without a training record.
 */
describe('trajscope lint: training-inference mismatch (§10)', () => {
  const seg = { input_ids: [1, 2, 3], generated_ids: [10, 11, 12], old_logprobs: [-1, -0.5, -2], tool_call_id: null };
  const trained = buildRollout({
    rollout_id: 'r-trained',
    segments: [seg],
    training: { sequence_ids: [1, 2, 3, 10, 11, 12], loss_mask: [0, 0, 0, 1, 1, 1], logprobs: [null, null, null, -0.3, -0.5, -2.4] },
  });
  const untrained = buildRollout({ rollout_id: 'r-plain', segments: [seg] });
  const file = () => write('mismatch.jsonl', toJsonl([trained, untrained]));

  it('adds mismatch to the rollout with a training record only, with the default cap 2', async () => {
    const { stdout } = await lint(file(), '--json');
    const [a, b] = JSON.parse(stdout).rollouts;
    expect(a.mismatch.n).toBe(3);
    expect(a.mismatch.mean_abs).toBeCloseTo(1.1 / 3, 12);
    expect(a.mismatch.max_abs).toBeCloseTo(0.7, 12);
    expect(a.mismatch.ratio_clip_frac).toBeCloseTo(1 / 3, 12);
    expect(Object.keys(a.mismatch)).toEqual(['n', 'mean_abs', 'max_abs', 'ratio_mean', 'ratio_clip_frac', 'kl_k3']);
    expect(b).not.toHaveProperty('mismatch');
  });

  it('clips at --is-cap C', async () => {
    const { stdout } = await lint(file(), '--json', '--is-cap', '2.5');
    expect(JSON.parse(stdout).rollouts[0].mismatch.ratio_clip_frac).toBe(0);
    const low = JSON.parse((await lint(file(), '--json', '--is-cap', '0.9')).stdout);
    // r = e^0.7 and e^0 = 1 are above 0.9; e^-0.4 is not.
    expect(low.rollouts[0].mismatch.ratio_clip_frac).toBeCloseTo(2 / 3, 12);
  });

  it('says why the demo’s compacted context was rewritten, decoding its ids with the bundled Qwen3 tokenizer', async () => {
    const demo = join(import.meta.dirname, '../../public/demo/rollouts.jsonl');
    const { stdout } = await lint(demo, '--json');
    const f = JSON.parse(stdout)
      .rollouts.find((r: { rollout_id: string }) => r.rollout_id === 'r-compacted')
      .findings.find((x: { code: string }) => x.code === 'W_CONTEXT_REWRITTEN');
    expect(f.message).toMatch(/: compacted: earlier text was removed or replaced \(tokens \d+–\d+ of the earlier sequence: "def search/);
    expect(f.message).toContain('now "[output omitted]"');
  });

  it('reports for each demo rollout exactly what rolloutMismatch (the run index’s source) computes, at the cap given', async () => {
    const demo = join(import.meta.dirname, '../../public/demo/rollouts.jsonl');
    const { stdout } = await lint(demo, '--json', '--is-cap', '1.0001');
    const reported = JSON.parse(stdout).rollouts;
    const records = readFileSync(demo, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(reported.map((r: { mismatch?: unknown }) => r.mismatch ?? null)).toEqual(records.map((r) => rolloutMismatch(r, 1.0001)));
    // The bf16 sampler is the only rollout with a ratio above 1.0001 somewhere.
    expect(reported.filter((r: { mismatch?: { ratio_clip_frac: number } }) => (r.mismatch?.ratio_clip_frac ?? 0) > 0)).toHaveLength(1);
  });

  it('prints the run totals and the worst rollouts in the readable summary', async () => {
    const { stdout } = await lint(file());
    expect(stdout).toContain('training-inference mismatch (§10, C = 2): 1 of 1 rollout with a training record compared, 3 positions');
    expect(stdout).toContain('mean |d| 0.3667, max |d| 0.7, ratio mean 1.228, clipped 0.3333, k3 0.128');
    expect(stdout).toMatch(/largest max \|d\|:\n {4}mismatch\.jsonl:1 r-trained: n 3, mean \|d\| 0\.3667/);
  });
});

/* Files of no known format (exit 2, one line), a field mapping, and counting unknown terminations. */
describe('trajscope lint --print-map', () => {
  // A benchmark row of a tool no adapter was written for: a conversation nested in its result, with a score.
  const row = (id: string) =>
    JSON.stringify({
      instance: id,
      score: 0.5,
      result: {
        history: [
          { role: 'user', content: 'List the files.' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'a.py' },
          { role: 'assistant', content: 'a.py' },
        ],
      },
    });

  it('prints the mapping a file read by shape was read through, for a file and for a directory holding it', async () => {
    mkdirSync(join(dir, 'by-shape'), { recursive: true });
    const file = write('by-shape/rows.jsonl', `${row('t-1')}\n${row('t-2')}\n`);
    const one = await lint('--print-map', file);
    expect(one.code).toBe(0);
    const mapping = JSON.parse(one.stdout) as Record<string, unknown>;
    expect(mapping).toMatchObject({ messages: { path: 'result.history' }, reward: 'score' });
    const folder = await lint('--print-map', 'by-shape');
    expect(folder.code).toBe(0);
    expect(JSON.parse(folder.stdout)).toEqual(mapping);
  });

  it('says there is nothing to print for a v1 file, exit 2', async () => {
    const { code, stderr } = await lint('--print-map', write('v1-only.jsonl', toJsonl([buildRollout()])));
    expect(code).toBe(2);
    expect(stderr).toMatch(/no record was read by shape \(read as Trajscope v1\): nothing to print/);
  });
});

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

  it('a file of no known format gets no summary that reads as clean: none in text, `not_read` in --json, its lines not counted', async () => {
    const events = write('events2.jsonl', '{"ts": 1, "event": "start"}\n{"ts": 2, "event": "stop"}\n');
    const text = await lint(events);
    expect([text.code, text.stdout]).toEqual([2, '']);
    const json = await lint(events, '--json');
    expect(json.code).toBe(2);
    const report = JSON.parse(json.stdout);
    expect(report.summary).toEqual({ lines: 0, rollouts: 0, errors: 0, warnings: 0 });
    expect(report.not_read).toEqual([
      { file: 'events2.jsonl', reason: 'unsupported', message: expect.stringContaining('not a format Trajscope reads') },
    ]);
    expect(Object.keys(report)).toEqual(['summary', 'not_read', 'parse_errors', 'rollouts', 'groups']);
    // Beside a file that was read: its summary, after a line naming what was not.
    const ok = write('ok2.jsonl', toJsonl([buildRollout()]));
    const mixed = await lint(events, 'missing2.jsonl', ok);
    expect(mixed.code).toBe(2);
    expect(mixed.stdout).toMatch(
      /^not read: events2\.jsonl \(not a format Trajscope reads\)\nnot read: missing2\.jsonl \(no such file\)\n1 line, 1 rollout, /,
    );
    const clean = await lint(ok, '--json');
    expect(Object.keys(JSON.parse(clean.stdout))).toEqual(['summary', 'parse_errors', 'rollouts', 'groups']);
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
    expect((await lint('x.jsonl', '--from', 'csv')).stderr).toContain('--from must be auto or a format name (');
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
