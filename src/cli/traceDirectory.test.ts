import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { LineResult, ParseError, ReadOptions } from '../format';
import {
  atif,
  captured,
  harborJob,
  type Json,
  openHandsConversation,
  openHandsProbe,
  PROBE_MISSING,
  scratchFolder,
  tau2Run,
  trialResult,
} from '../testing/traceDirectories';
import { runConvert } from './convert';
import { runLint } from './lint';
import { readPath } from './readFile';
import { readDirectory } from './traceDirectory';

const scratch = scratchFolder('trajscope-tracedir-');
const { directory } = scratch;
afterAll(scratch.remove);
afterEach(() => vi.restoreAllMocks());

async function read(path: string, options: ReadOptions = {}, reader = readPath) {
  const results: LineResult[] = [];
  const summary = await reader(path, (r) => results.push(r), options);
  const rollouts = results.flatMap((r) =>
    r.kind === 'rollout' ? [{ file: r.value.file, line: r.value.line, record: r.value.record as Json }] : [],
  );
  const errors: ParseError[] = results.flatMap((r) => (r.kind === 'error' ? [r.value] : []));
  return { summary, rollouts, errors };
}

describe('readPath: a directory whose files are traces', () => {
  it('a Harbor job: one rollout per trial, named by the directory as given and the trial trajectory, at line 1', async () => {
    const dir = directory(harborJob());
    const { summary, rollouts, errors } = await read(dir);
    expect(errors).toEqual([]);
    expect(summary).toEqual({ lines: 2, format: 'harbor-atif', metadata: false, unsupported: null, gzip: false });
    expect(rollouts.map((r) => [r.file, r.line, r.record.rollout_id, r.record.task_id, r.record.reward, r.record.steps.length])).toEqual([
      [`${dir}/hello-world__a/agent/trajectory.json`, 1, 'sess-a', 'hello-world', 1, 1],
      [`${dir}/hello-world__b/agent/trajectory.json`, 1, 'sess-b', 'hello-world', 0, 1],
    ]);
  });

  it('readDirectory names results by the directory-relative path unless told a name', async () => {
    const dir = directory(harborJob());
    const { rollouts } = await read(dir, {}, (p, onLine, o) => readDirectory(p, onLine, o));
    expect(rollouts.map((r) => r.file)).toEqual(['hello-world__a/agent/trajectory.json', 'hello-world__b/agent/trajectory.json']);
  });

  it('an OpenHands conversation folder and a tau2-bench results directory', async () => {
    const conversation = directory(openHandsConversation());
    const oh = await read(`${conversation}/`);
    expect(oh.errors).toEqual([]);
    expect(oh.summary).toMatchObject({ lines: 1, format: 'openhands-events', unsupported: null });
    expect(oh.rollouts.map((r) => [r.file, r.record.termination, r.record.policy_version, r.record.segments.length])).toEqual([
      [`${conversation}/base_state.json`, 'finished', 'openai/gpt-4o-mini', 1],
    ]);
    const run = directory(tau2Run());
    const tau2 = await read(run);
    expect(tau2.errors).toEqual([]);
    expect(tau2.summary).toMatchObject({ lines: 1, format: 'tau2-bench' });
    expect(tau2.rollouts.map((r) => [r.file, r.record.rollout_id, r.record.reward, r.record.termination])).toEqual([
      [`${run}/simulations/s1.json`, 's1', 0.5, 'finished'],
    ]);
  });

  it('a directory of no layout is unsupported, in one line saying what it holds', async () => {
    const dir = directory({ 'notes.txt': 'x', 'plot.png': '', 'data/a.csv': '' });
    const { summary, rollouts } = await read(dir);
    expect(rollouts).toEqual([]);
    expect(summary.format).toBeNull();
    expect(summary.unsupported).toMatch(
      /^a directory of 3 files \(data\/a\.csv, notes\.txt, plot\.png\): none is a trajectory file or a known trace layout \(known layouts: /,
    );
  });

  it('--from other than the layout`s own format does not apply to a directory; its own does', async () => {
    const dir = directory(harborJob());
    const other = await read(dir, { from: 'openhands-events' });
    expect(other.rollouts).toEqual([]);
    expect(other.summary.unsupported).toBe(
      'a Harbor job, read as harbor-atif: --from openhands-events does not apply to it (name its files to read them so)',
    );
    expect((await read(dir, { from: 'harbor-atif' })).rollouts).toHaveLength(2);
  });
});

describe('readPath: nothing is read through a symbolic link', () => {
  it('a trajectory linked from outside is not read; the trial without it is one error; a linked folder is not walked', async () => {
    const outside = directory({ 'secret/trajectory.json': atif('outside-session'), 'secret/result.json': trialResult('x', 1) });
    const dir = directory({ 'hello-world__a/result.json': trialResult('hello-world__a', 1), 'hello-world__a/trial.log': '' });
    symlinkSync(join(outside, 'secret/trajectory.json'), join(dir, 'hello-world__a/agent-trajectory.json'));
    mkdirSync(join(dir, 'hello-world__a/agent'));
    symlinkSync(join(outside, 'secret/trajectory.json'), join(dir, 'hello-world__a/agent/trajectory.json'));
    symlinkSync(join(outside, 'secret'), join(dir, 'hello-world__b'));
    const { rollouts, errors } = await read(dir);
    expect(rollouts).toEqual([]);
    expect(errors).toEqual([
      {
        file: `${dir}/hello-world__a/result.json`,
        line: 1,
        code: 'E_SCHEMA',
        message: 'a Harbor trial with no agent/trajectory.json: its agent wrote no ATIF trajectory',
      },
    ]);
  });

  it('a directory of links only says so', async () => {
    const outside = directory(harborJob());
    const dir = directory({});
    symlinkSync(join(outside, 'hello-world__a'), join(dir, 'trial'));
    const { summary } = await read(dir);
    expect(summary.unsupported).toMatch(/^an empty directory; 1 symbolic link not followed: no trajectory file, no trace layout/);
  });

  it('the named directory itself may be a link (the user named it)', async () => {
    const real = directory(tau2Run());
    const link = scratch.fresh('link');
    symlinkSync(real, link);
    const { rollouts } = await read(link);
    expect(rollouts.map((r) => r.file)).toEqual([`${link}/simulations/s1.json`]);
  });
});

describe('lint and convert take a trace directory', () => {
  it('lint DIR reads a Harbor job as its trials; a directory of no layout is one line and exit 2', async () => {
    const job = directory(harborJob());
    const linted = await captured(() => runLint(['--json', job]));
    const report = JSON.parse(linted.stdout);
    expect(report.summary).toMatchObject({ lines: 2, rollouts: 2 });
    expect(report.rollouts.map((r: Json) => [r.rollout_id, r.reward])).toEqual([
      ['sess-a', 1],
      ['sess-b', 0],
    ]);
    const none = directory({ 'notes.txt': 'x' });
    const refused = await captured(() => runLint([none]));
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `trajscope lint: ${none}: a directory of 1 file (notes.txt): none is a trajectory file or a known trace layout (known layouts: ` +
        'OpenHands SDK conversation (base_state.json + events/event-NNNNN-<id>.json), Harbor job (<trial>/agent/trajectory.json + ' +
        '<trial>/result.json), tau2-bench results directory (results.json + simulations/<id>.json))\n',
    );
  });

  it('convert DIR writes one v1 line per trace', async () => {
    const run = directory(tau2Run());
    const out = `${scratch.fresh('out')}.jsonl`;
    const converted = await captured(() => runConvert([run, '--out', out]));
    expect(converted.code).toBe(0);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((r) => [r.rollout_id, r.reward])).toEqual([['s1', 0.5]]);
  });
});

describe.skipIf(PROBE_MISSING !== null)(`a published OpenHands conversation folder, on disk ${PROBE_MISSING ?? ''}`, () => {
  it('lint DIR: one rollout, its 2 steps (terminal, finish), finished, named by its base_state.json', async () => {
    const fetched = openHandsProbe();
    try {
      const { summary, rollouts, errors } = await read(fetched.dir);
      expect(errors).toEqual([]);
      expect(summary).toMatchObject({ lines: 1, format: 'openhands-events' });
      expect(rollouts.map((r) => [r.file, r.record.termination, r.record.steps.map((s: Json) => s.tool)])).toEqual([
        [`${fetched.dir}/cd94562403b9487ebdd4018e3f531dfd/base_state.json`, 'finished', ['terminal', 'finish']],
      ]);
      const linted = await captured(() => runLint(['--json', fetched.dir]));
      expect(JSON.parse(linted.stdout).summary).toMatchObject({ lines: 1, rollouts: 1 });
    } finally {
      fetched.remove();
    }
  });
});

describe('readPath: a run directory (trajectory files, no trace layout)', () => {
  it('reads every file of the committed demo run, in name order, each named by its path', async () => {
    const run = join(__dirname, '../../public/demo/run');
    const { summary, rollouts, errors } = await read(run);
    expect(summary.unsupported).toBeNull();
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(384);
    expect(new Set(rollouts.map((r) => r.file)).size).toBe(24);
    expect(rollouts[0]?.file).toBe(join(run, 'step_0000.jsonl.gz'));
  });
});
