import { describe, expect, it } from 'vitest';
import { describeDirectory, detectTraceDirectory } from './detect';
import type { ReadFile } from './layouts';

/** A reader over JSON values by path: what detection may read (tau2's `results.json`). */
function reader(values: Record<string, unknown> = {}): ReadFile {
  return async (path) => (path in values ? { bytes: new TextEncoder().encode(JSON.stringify(values[path])) } : { error: 'absent' });
}

const E0 = 'event-00000-5df490d1-98e8-4dea-9ae7-7f36c59f8ed5.json';
const E1 = 'event-00001-ebe32379-cb75-4a82-8a3c-a8f8b88f6efa.json';
const E2 = 'event-00002-fa7668e4-a43d-4fa4-b75c-ffd642afb5b5.json';
const E3 = 'event-00003-4fc3850a-621c-4e43-a6e3-b1820e80e058.json';

describe('detectTraceDirectory: OpenHands SDK conversations', () => {
  it('a folder with base_state.json and events/ is one conversation, its events in index order', async () => {
    const files = ['conv/base_state.json', `conv/events/${E2}`, `conv/events/${E0}`, `conv/events/${E1}`, 'conv/events/notes.txt'];
    const found = await detectTraceDirectory(files, reader());
    expect(found?.layouts).toEqual(['openhands-conversation']);
    expect(found?.units).toEqual([
      {
        layout: 'openhands-conversation',
        root: 'conv',
        state: 'conv/base_state.json',
        events: [`conv/events/${E0}`, `conv/events/${E1}`, `conv/events/${E2}`],
        pastGap: [],
      },
    ]);
  });

  it('reads indexes as numbers (5 digits or more) and stops at the first gap, as the SDK event log does', async () => {
    const big = 'event-100000-0d063a22-20db-40db-93f0-4edbc42b2ff5.json';
    const files = ['c/base_state.json', `c/events/${E0}`, `c/events/${E1}`, `c/events/${E3}`, `c/events/${big}`];
    const [unit] = (await detectTraceDirectory(files, reader()))?.units ?? [];
    expect(unit).toMatchObject({ events: [`c/events/${E0}`, `c/events/${E1}`], pastGap: [`c/events/${E3}`, `c/events/${big}`] });
  });

  it('a persistence folder of many conversations, and a listed events/ folder alone, are read too', async () => {
    const many = await detectTraceDirectory(['a1/base_state.json', `a1/events/${E0}`, 'b2/base_state.json'], reader());
    expect(many?.units.map((u) => u.root)).toEqual(['a1', 'b2']);
    const events = await detectTraceDirectory([E0, E1], reader());
    expect(events?.units).toMatchObject([{ root: '', state: null, events: [E0, E1] }]);
  });
});

describe('detectTraceDirectory: Harbor jobs', () => {
  it('one trial per folder with agent/trajectory.json or a trial result.json; the job folder is no trial', async () => {
    const files = [
      'job/config.json',
      'job/job.log',
      'job/result.json',
      'job/hello-world__AbC/agent/trajectory.json',
      'job/hello-world__AbC/config.json',
      'job/hello-world__AbC/result.json',
      'job/hello-world__AbC/verifier/reward.txt',
      'job/hello-world__XyZ/config.json',
      'job/hello-world__XyZ/result.json',
      'job/hello-world__XyZ/trial.log',
    ];
    const found = await detectTraceDirectory(files, reader());
    expect(found?.layouts).toEqual(['harbor-job']);
    expect(found?.units).toEqual([
      {
        layout: 'harbor-job',
        root: 'job/hello-world__AbC',
        trajectory: 'job/hello-world__AbC/agent/trajectory.json',
        result: 'job/hello-world__AbC/result.json',
      },
      { layout: 'harbor-job', root: 'job/hello-world__XyZ', trajectory: null, result: 'job/hello-world__XyZ/result.json' },
    ]);
  });

  it('a trial folder named alone is the trial itself; an OpenHands conversation in its agent logs is part of it', async () => {
    const files = ['agent/trajectory.json', 'result.json', 'agent/sessions/c1/base_state.json', `agent/sessions/c1/events/${E0}`];
    const found = await detectTraceDirectory(files, reader());
    expect(found?.layouts).toEqual(['harbor-job']);
    expect(found?.units).toMatchObject([{ root: '', trajectory: 'agent/trajectory.json', result: 'result.json' }]);
  });
});

describe('detectTraceDirectory: tau2-bench results directories', () => {
  const files = ['run/results.json', 'run/simulations/sim-b.json', 'run/simulations/sim-a.json'];

  it('results.json holding a Results (its info) beside simulations/*.json: one run, simulations sorted', async () => {
    const meta = { timestamp: '2026-06-30T11:40:00', info: { git_commit: 'abc' }, tasks: [] };
    const found = await detectTraceDirectory(files, reader({ 'run/results.json': meta }));
    expect(found?.layouts).toEqual(['tau2-results']);
    expect(found?.units).toEqual([
      {
        layout: 'tau2-results',
        root: 'run',
        results: 'run/results.json',
        meta,
        simulations: ['run/simulations/sim-a.json', 'run/simulations/sim-b.json'],
      },
    ]);
  });

  it("another tool's results.json (no info object), or none readable, is no tau2 run", async () => {
    expect(await detectTraceDirectory(files, reader({ 'run/results.json': { accuracy: 0.5 } }))).toBeNull();
    expect(await detectTraceDirectory(files, reader())).toBeNull();
  });
});

describe('detectTraceDirectory: nothing of a layout', () => {
  it('trajectory files, a verifiers results folder, an empty listing: null', async () => {
    expect(await detectTraceDirectory([], reader())).toBeNull();
    expect(await detectTraceDirectory(['a.jsonl', 'b/results.jsonl', 'b/metadata.json', 'c/trajectory.json'], reader())).toBeNull();
  });
});

describe('describeDirectory', () => {
  const known =
    'known layouts: OpenHands SDK conversation (base_state.json + events/event-NNNNN-<id>.json), Harbor job ' +
    '(<trial>/agent/trajectory.json + <trial>/result.json), tau2-bench results directory (results.json + simulations/<id>.json)';

  it('says how many files, which could be read one by one, and what was looked for, in one line', () => {
    expect(describeDirectory(['a.txt', 'b.png', 'c/d.csv', 'e.md'])).toBe(
      `a directory of 4 files (a.txt, b.png, c/d.csv, …): none is a trajectory file or a known trace layout (${known})`,
    );
    expect(describeDirectory(['notes.txt', 'run/a.jsonl', 'run/b.json'])).toBe(
      `a directory of 3 files, 2 of them with a trajectory file's ending (run/a.jsonl, run/b.json), but no known trace layout (${known}): name the files to read them`,
    );
    expect(describeDirectory(['a.jsonl'])).toMatch(/^a directory of 1 file, all with a trajectory file's ending \(a\.jsonl\)/);
  });

  it('an empty directory, and links not followed', () => {
    expect(describeDirectory([])).toBe(`an empty directory: no trajectory file, no trace layout (${known})`);
    expect(describeDirectory([], 2)).toMatch(/^an empty directory; 2 symbolic links not followed: /);
    expect(describeDirectory(['x.txt'], 1)).toMatch(/^a directory of 1 file \(x\.txt\); 1 symbolic link not followed: none is/);
    expect(describeDirectory(['x.txt'])).not.toContain('\n');
  });
});
