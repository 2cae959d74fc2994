import { describe, expect, it } from 'vitest';
import { fetchedFile, fetchedFolder, fetchedMissing, fetchedMissingAt } from '../../testing/fetched';
import { parseWholeFile } from '../adapters/wholeFile';
import type { LineResult, ParseError } from '../jsonl';
import { detectTraceDirectory } from './detect';
import type { ReadFile } from './layouts';
import { readTraceDirectory } from './read';

/*
 * Trace directories the tools' own repositories published, read in place from their fetched git snapshots
 * (src/testing/fetched.ts; never copied into the project). The numbers asserted were read from the files.
 */

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

async function readListing(files: readonly string[], bytes: (path: string) => Buffer) {
  const read: ReadFile = async (path) => (files.includes(path) ? { bytes: new Uint8Array(bytes(path)) } : { error: 'absent' });
  const found = await detectTraceDirectory(files, read);
  const results: LineResult[] = [];
  const traces = found ? await readTraceDirectory(found, read, (r) => results.push(r)) : 0;
  const rollouts = results.flatMap((r) => (r.kind === 'rollout' ? [{ file: r.value.file, record: r.value.record as Json }] : []));
  const errors: ParseError[] = results.flatMap((r) => (r.kind === 'error' ? [r.value] : []));
  return { found, traces, rollouts, errors };
}

function readFetched(repo: string, folder: string, commit = 'HEAD', keep: (path: string) => boolean = () => true) {
  const { files, read } = fetchedFolder(repo, folder, commit);
  return readListing(files.filter(keep), read);
}

const OPENHANDS = 'OpenHands/software-agent-sdk';
/*
 * Conversations the SDK persisted (base_state.json + events/), committed for review in pull requests and
 * removed later: each read at the commit whose tree holds it.
 */
const PROBE = {
  commit: '0bb2b16febc248553f6bdfa8ad89a8fae0d33cbf',
  folder: '.pr/event-json-to-openai-messages/cd94562403b9487ebdd4018e3f531dfd/conversations',
};
const ARTIFACTS = { commit: 'd25a022a25a9a266eda71e3aebc03815bcc48d4e', folder: '.pr/artifacts' };
const PLUGIN = { commit: '570d4a05241eeb24988e7a403a60d85bd49c0b14', folder: '.pr/local_plugin_install_test/persistence' };
const OPENHANDS_MISSING = [PROBE, ARTIFACTS, PLUGIN].map((c) => fetchedMissingAt(OPENHANDS, c.commit)).find((m) => m !== null) ?? null;

describe.skipIf(OPENHANDS_MISSING !== null)(`OpenHands SDK conversation folders in ${OPENHANDS} ${OPENHANDS_MISSING ?? ''}`, () => {
  it('a conversations folder (8 events): terminal then finish, the model and status from base_state.json', async () => {
    const { found, traces, rollouts, errors } = await readFetched(OPENHANDS, PROBE.folder, PROBE.commit);
    expect(errors).toEqual([]);
    expect(found?.units).toMatchObject([
      { root: 'cd94562403b9487ebdd4018e3f531dfd', state: 'cd94562403b9487ebdd4018e3f531dfd/base_state.json' },
    ]);
    expect(found?.units[0]?.layout === 'openhands-conversation' && found.units[0].events.length).toBe(8);
    expect(traces).toBe(1);
    expect(rollouts).toHaveLength(1);
    const r = rollouts[0]?.record;
    expect(rollouts[0]?.file).toBe('cd94562403b9487ebdd4018e3f531dfd/base_state.json');
    expect(r).toMatchObject({ policy_version: 'openai/gpt-4o-mini', termination: 'finished', reward: null });
    expect(r?.segments).toHaveLength(3);
    expect(r?.steps.map((s: Json) => [s.tool, s.tool_call_id, s.observation.exit_code])).toEqual([
      ['terminal', 'call_KaQ0kUcBb5tbMzhxbIx9dvoZ', 0],
      ['finish', 'call_HhojVstik9LFNxVlLTgV0iIA', undefined],
    ]);
  });

  it('a probe run (11 events, a system prompt update between three user turns): three finish calls, three steps', async () => {
    const { traces, rollouts, errors } = await readFetched(OPENHANDS, ARTIFACTS.folder, ARTIFACTS.commit);
    expect(errors).toEqual([]);
    expect(traces).toBe(1);
    expect(rollouts[0]?.file).toBe('20260121-223755/conversations/3fdb316098bb48e1aa029ce56805792a/base_state.json');
    expect(rollouts[0]?.record).toMatchObject({ policy_version: 'gpt-4o-mini', termination: 'finished' });
    expect(rollouts[0]?.record.segments).toHaveLength(3);
    expect(rollouts[0]?.record.steps.map((s: Json) => s.tool)).toEqual(['finish', 'finish', 'finish']);
  });

  it('a reply without a finish call: only base_state.json (execution_status "finished") says the run ended', async () => {
    const withState = await readFetched(OPENHANDS, PLUGIN.folder, PLUGIN.commit);
    expect(withState.errors).toEqual([]);
    expect(withState.rollouts).toHaveLength(1);
    expect(withState.rollouts[0]?.record).toMatchObject({ policy_version: 'test-model', termination: 'finished' });
    expect(withState.rollouts[0]?.record.segments).toHaveLength(1);
    expect(withState.rollouts[0]?.record.steps).toBeUndefined();
    const eventsOnly = await readFetched(OPENHANDS, PLUGIN.folder, PLUGIN.commit, (p) => !p.endsWith('base_state.json'));
    expect(eventsOnly.rollouts[0]?.record.termination).toBe('unknown');
    expect(eventsOnly.rollouts[0]?.record.policy_version).toBeUndefined();
  });
});

const TAU2 = 'sierra-research/tau2-bench';
const TAU2_MISSING = fetchedMissing(TAU2);

describe.skipIf(TAU2_MISSING !== null)(`tau2-bench's directory results in ${TAU2} ${TAU2_MISSING ?? ''}`, () => {
  /*
   * tests/test_voice/test_interaction_metrics/testdata/experiment: a voice run saved in the dir format (results.json
   * + 3 simulation files). Full-duplex simulations keep `ticks`, not `messages`, and these have no reward_info.
   */
  it('the voice experiment: 3 simulations, one rollout each, named by their files; no reward was recorded', async () => {
    const { found, traces, rollouts, errors } = await readFetched(TAU2, 'tests/test_voice/test_interaction_metrics/testdata');
    expect(errors).toEqual([]);
    expect(found?.layouts).toEqual(['tau2-results']);
    expect(traces).toBe(3);
    expect(rollouts.map((r) => [r.file, r.record.task_id, r.record.termination, r.record.reward])).toEqual([
      ['experiment/simulations/49b22f0c-4a56-41c5-922f-bc2a56e53a23.json', '40', 'finished', null],
      ['experiment/simulations/7c6a3e3e-ac3f-406f-aea9-8cacb0a2e680.json', '98', 'finished', null],
      ['experiment/simulations/cd9c5ed2-9751-4c86-8dac-8a895a332e41.json', '20', 'finished', null],
    ]);
    for (const { file, record } of rollouts) {
      expect(record.rollout_id).toBe(file.replace(/^.*\//, '').replace(/\.json$/, ''));
      expect(record.policy_version).toBe('openai:gpt-realtime-2');
      // Their conversation is in ticks (973, 1,810, 1,340 of them), kept in extra and read as utterances
      // (counted in src/format/adapters/tau2Voice.test.ts).
      expect(record.extra.ticks.length).toBeGreaterThan(900);
    }
    expect(rollouts.map((r) => r.record.segments.length)).toEqual([15, 19, 17]);
  });
});

const HARBOR = 'sachiny0106/Xelron';
const HARBOR_MISSING = fetchedMissing(HARBOR);

describe.skipIf(HARBOR_MISSING !== null)(`Harbor's golden trajectories as a job's trials (${HARBOR}) ${HARBOR_MISSING ?? ''}`, () => {
  /*
   * No published Harbor job directory was found to fetch: the trials here are Harbor's own golden ATIF files
   * (tests/golden/, written by its trajectory writer) placed where a trial keeps them, each beside a
   * result.json in the shape of models/trial/result.py. What is real is the trajectories: their steps are
   * read exactly as when each file is read alone.
   */
  const GOLDEN = [
    'tests/golden/openhands/hello-world.trajectory.json',
    'tests/golden/terminus_2/hello-world-context-summarization-linear-history.trajectory.json',
    'tests/golden/terminus_2/hello-world-timeout.trajectory.json',
  ];

  it('three trials: one rollout each, the steps of its trajectory, the task and reward of its result.json', async () => {
    const job = new Map<string, Buffer>();
    GOLDEN.forEach((path, i) => {
      const trial = `hello-world__${i}`;
      job.set(`${trial}/agent/trajectory.json`, fetchedFile(HARBOR, path));
      const rewards = { reward: i === 2 ? 0 : 1 };
      job.set(
        `${trial}/result.json`,
        Buffer.from(JSON.stringify({ task_name: 'hello-world', trial_name: trial, verifier_result: { rewards } })),
      );
    });
    const { traces, rollouts, errors } = await readListing([...job.keys()], (p) => job.get(p) ?? Buffer.alloc(0));
    expect(errors).toEqual([]);
    expect(traces).toBe(3);
    const alone = GOLDEN.map((path) => {
      const [r] = parseWholeFile(fetchedFile(HARBOR, path).toString('utf8'), path, { from: 'harbor-atif' }).results;
      return r?.kind === 'rollout' ? (r.value.record.steps ?? []).length : -1;
    });
    expect(alone).toEqual([1, 3, 3]);
    expect(rollouts.map((r) => (r.record.steps ?? []).length)).toEqual(alone);
    expect(rollouts.map((r) => [r.record.task_id, r.record.reward])).toEqual([
      ['hello-world', 1],
      ['hello-world', 1],
      ['hello-world', 0],
    ]);
  });
});
