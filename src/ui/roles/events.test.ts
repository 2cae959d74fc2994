import { describe, expect, it } from 'vitest';
import type { Rollout, Segment, Step } from '../../format';
import { callText, observationText } from './callWords';
import { buildRoleEvents } from './events';

// The design article's six steps, timed as the demo clock times them.
const seg = (id: string | null, n = 3): Segment => ({
  input_ids: [1],
  generated_ids: Array(n).fill(7),
  old_logprobs: Array(n).fill(-0.1),
  tool_call_id: id,
});
const at = (ms: number) => new Date(Date.UTC(2026, 8, 22, 8, 0, 0, ms)).toISOString();
const step = (i: number, tool: string, from: number, to: number, extra: Partial<Step> = {}): Step => ({
  tool_call_id: `c-00${i}`,
  tool,
  args: {},
  observation: { text: 'patch applied', status: 'ok' },
  started_at: at(from),
  ended_at: at(to),
  ...extra,
});

const ARTICLE: Rollout = {
  task_id: 'binary-search-001',
  rollout_id: 'r-article',
  attempt_id: 'a-1',
  started_at: at(0),
  ended_at: at(7980),
  segments: [1, 2, 3, 4, 5, 6].map((i) => seg(`c-00${i}`)),
  steps: [
    step(1, 'read_file', 645, 685, {
      args: { path: 'search.py' },
      observation: { text: 'def search(a, target):\n    return -1\n', status: 'ok' },
    }),
    step(2, 'edit', 1780, 1840, { args: { path: 'search.py', old: 'low = mid', new: 'low = mid + 1' } }),
    step(3, 'run_tests', 2360, 3260, { tests: { passed: ['find 3', 'find 6'], failed: [], over_budget: ['find 0'] } }),
    step(4, 'edit', 4355, 4415, { args: { path: 'search.py', old: 'high = mid', new: 'high = mid - 1' } }),
    step(5, 'run_tests', 4935, 5835, { tests: { passed: ['find 3', 'find 6', 'find 0'], failed: [], over_budget: [] } }),
    step(6, 'finish', 6330, 6480, { observation: { text: 'submitted', status: 'ok' } }),
  ],
  termination: 'finished',
  reward: 1,
  grading: {
    verdict: 'pass',
    private_tests: { passed: ['a', 'b', 'c', 'd'], failed: [] },
    artifact: '--- a/search.py\n+++ b/search.py\n@@ -1 +1 @@\n-            low = mid\n+            low = mid + 1\n',
  },
  training: { sequence_ids: [1, 7, 7, 7], loss_mask: [0, 1, 1, 1] },
};

describe('buildRoleEvents', () => {
  const { events, timed, totalMs, excluded } = buildRoleEvents(ARTICLE);

  it('gives each of the six steps a generation, a dispatch, an execution and an observation, then grading and training', () => {
    expect(events.map((e) => e.kind)).toEqual([
      ...Array(6).fill(['generate', 'dispatch', 'execute', 'observe']).flat(),
      'grade',
      'score',
      'consume',
    ]);
    expect(events.filter((e) => e.kind === 'generate').map((e) => e.lane)).toEqual(Array(6).fill('model'));
    expect(events.find((e) => e.kind === 'grade')?.lane).toBe('grader');
    expect(events.at(-1)?.lane).toBe('trainer');
    expect(excluded).toBe(false);
  });

  it('sends observations back toward the model and the private grade to the trainer only', () => {
    const flows = events.flatMap((e) => e.flows);
    const observations = flows.filter((f) => f.kind === 'observation');
    expect(observations).toHaveLength(6);
    expect(observations.slice(0, 5).every((f) => f.from === 'environment' && f.via === 'harness' && f.to === 'model')).toBe(true);
    // The finish's observation comes back after the last generation: the model never reads it.
    expect(observations[5]).toMatchObject({ from: 'environment', to: 'harness', label: 'submitted' });
    const grade = flows.filter((f) => f.kind === 'private-grade');
    expect(grade).toEqual([{ kind: 'private-grade', from: 'grader', to: 'trainer', via: null, label: 'private grade: pass · R = 1' }]);
    expect(flows.some((f) => f.kind === 'private-grade' && f.to === 'model')).toBe(false);
    expect(flows.find((f) => f.kind === 'submission')).toMatchObject({ from: 'environment', to: 'grader', label: 'artifact +1 −1' });
    expect(flows.find((f) => f.kind === 'trajectory')).toMatchObject({
      from: 'harness',
      to: 'trainer',
      label: 'trajectory: 6 generations · 3 trained tokens',
    });
  });

  it('takes durations from the timestamps', () => {
    expect(timed).toBe(true);
    expect(totalMs).toBe(7980);
    const byId = new Map(events.map((e) => [e.id, e]));
    expect(byId.get('gen-0')).toMatchObject({ startMs: 0, durationMs: 645 });
    expect(byId.get('exec-3')).toMatchObject({ startMs: 2360, durationMs: 900 });
    // The next generation starts when the observation arrives.
    expect(byId.get('gen-3')).toMatchObject({ startMs: 3260, durationMs: 4355 - 3260 });
    expect(byId.get('grade')).toMatchObject({ startMs: 6480, durationMs: 1500 });
  });

  it('narrates each event', () => {
    const exec = events.find((e) => e.id === 'exec-2');
    expect(exec?.caption).toBe(
      'The harness executes edit(search.py) — the environment’s file changes: “low = mid” → “low = mid + 1”.'.replace('’', "'"),
    );
    expect(events.find((e) => e.id === 'obs-3')?.caption).toBe(
      "The observation “2 passed, 1 over budget” goes back through the harness into the model's next context.",
    );
    expect(events.find((e) => e.id === 'score')?.caption).toContain('never back to the model');
    expect(events.find((e) => e.id === 'gen-0')?.caption).toBe(
      'The model samples 3 tokens: one tool call, read_file(search.py), log-probability −0.30.',
    );
  });

  it('lays out by order alone when there are no timestamps', () => {
    const untimed: Rollout = {
      ...ARTICLE,
      started_at: undefined,
      ended_at: undefined,
      steps: ARTICLE.steps?.map(({ started_at: _s, ended_at: _e, ...s }) => s),
    };
    const t = buildRoleEvents(untimed);
    expect(t.timed).toBe(false);
    expect(t.events.every((e) => e.durationMs === null && e.startMs === null)).toBe(true);
    expect(t.events).toHaveLength(events.length);
  });
});

describe('buildRoleEvents: endings', () => {
  it('ends an infrastructure failure at the harness and environment, with nothing for the trainer', () => {
    const infra: Rollout = {
      ...ARTICLE,
      segments: ARTICLE.segments.slice(0, 3),
      steps: [
        ...(ARTICLE.steps ?? []).slice(0, 2),
        step(3, 'run_tests', 2360, 2410, { observation: { text: 'infrastructure failure: test process killed', status: 'error' } }),
      ],
      termination: 'infra_failure',
      termination_detail: 'test process killed by SIGKILL',
      reward: null,
      grading: undefined,
      training: undefined,
    };
    const { events, excluded } = buildRoleEvents(infra);
    expect(excluded).toBe(true);
    const last = events.at(-1);
    expect(last).toMatchObject({ kind: 'excluded', lane: 'harness', laneEnd: 'environment', tone: 'excluded' });
    expect(last?.caption).toBe(
      "Infra failure: test process killed by SIGKILL. The rollout ends at the harness and environment — it never reaches the trainer's policy signal.",
    );
    expect(events.some((e) => e.lane === 'trainer' || e.flows.some((f) => f.to === 'trainer'))).toBe(false);
    // The killed run's observation never reached the model.
    expect(events.some((e) => e.id === 'obs-3')).toBe(false);
  });

  it('shows a rejected call as the harness refusing it, never executed', () => {
    const invalid: Rollout = {
      ...ARTICLE,
      segments: ARTICLE.segments.slice(0, 2),
      steps: [
        ...(ARTICLE.steps ?? []).slice(0, 1),
        step(2, 'run_shell', 1780, 1830, {
          args: { command: 'pytest' },
          executions: 0,
          observation: { text: 'error: unknown tool "run_shell"', status: 'error' },
        }),
      ],
      termination: 'invalid_call',
      reward: 0,
      grading: undefined,
    };
    const { events } = buildRoleEvents(invalid);
    const reject = events.find((e) => e.kind === 'reject');
    expect(reject).toMatchObject({ lane: 'harness', tone: 'error', title: 'reject run_shell' });
    expect(reject?.flows.map((f) => f.kind)).toEqual(['action']);
    expect(events.some((e) => e.id === 'exec-2')).toBe(false);
    // The error went nowhere: the rollout ended on it. The rejection's caption quotes it.
    expect(events.some((e) => e.id === 'obs-2')).toBe(false);
    expect(reject?.caption).toBe('The harness rejects run_shell(pytest): error: unknown tool "run_shell". The environment never runs it.');
    expect(events.at(-1)).toMatchObject({ kind: 'consume', title: 'policy signal: R = 0' });
  });

  it('stops an exhausted budget at the harness and gives the contract’s reward to the trainer', () => {
    const budget: Rollout = {
      ...ARTICLE,
      steps: ARTICLE.steps?.slice(0, 5),
      termination: 'budget_exhausted',
      reward: 0,
      grading: undefined,
      budget: { actions_used: 10, max_actions: 10 },
    };
    const kinds = buildRoleEvents(budget).events.map((e) => e.kind);
    expect(kinds.slice(-2)).toEqual(['stop', 'consume']);
    expect(kinds).not.toContain('grade');
    expect(buildRoleEvents(budget).events.at(-1)?.caption).toContain('R = 0 from the task contract (budget exhausted)');
  });
});

describe('buildRoleEvents: other shapes', () => {
  it('narrates a text-only generation without inventing tokens, and a final answer without a call', () => {
    const converted: Rollout = {
      task_id: 't',
      rollout_id: 'r',
      segments: [{ input_ids: [], generated_ids: [], old_logprobs: [], tool_call_id: null, text: 'The answer is 42.' }],
      termination: 'finished',
      reward: 1,
    };
    const { events, timed } = buildRoleEvents(converted);
    expect(timed).toBe(false);
    expect(events.map((e) => e.kind)).toEqual(['generate', 'consume']);
    expect(events[0]).toMatchObject({ title: 'generate answer', detail: 'text only, no token ids' });
    expect(events[0]?.caption).toBe('The model generates a final answer with no tool call (recorded as text, without token ids).');
    expect(events[1]?.caption).toContain('R = 1 as recorded, with no grader verdict (finished)');
  });

  it('keeps an orphan step (no generation) as harness work', () => {
    const orphan: Rollout = { ...ARTICLE, segments: ARTICLE.segments.slice(1) };
    const kinds = buildRoleEvents(orphan)
      .events.slice(0, 3)
      .map((e) => [e.kind, e.flows.map((f) => f.kind).join('+')]);
    expect(kinds).toEqual([
      ['dispatch', 'dispatch'],
      ['execute', ''],
      ['observe', 'observation'],
    ]);
  });
});

describe('labels', () => {
  it('ends with the trainer’s update when the trainer recorded one: advantage, tokens, the step, the lag', () => {
    const trained: Rollout = {
      ...ARTICLE,
      training_step: 4,
      training: {
        sequence_ids: [1, 7, 7, 7],
        loss_mask: [0, 1, 1, 1],
        update: { step: 5, policy_version: 'v-0005', advantage: 0.866, tokens: 3, clipped: 1 },
      },
    };
    const { events } = buildRoleEvents(trained);
    expect(events.map((e) => e.kind).slice(-2)).toEqual(['consume', 'update']);
    expect(events.at(-1)).toMatchObject({
      lane: 'trainer',
      title: 'update 5 · A +0.866',
      detail: '3 tokens trained',
      label: 'trainer update 5: advantage +0.866, 3 tokens trained',
    });
    expect(events.at(-1)?.caption).toBe(
      'The trainer’s update 5 (weights v-0005) gives this rollout advantage +0.866 in its group: its tokens are pushed up; 3 tokens trained, 1 stopped by the clip. It was sampled 1 update earlier (training_step 4), so the trainer’s log-probabilities differ from old_logprobs.',
    );
    // No update recorded (the single-file demo): no update event.
    expect(buildRoleEvents(ARTICLE).events.map((e) => e.kind)).not.toContain('update');
    // An excluded rollout never reaches the trainer, whatever it carries.
    const excluded = buildRoleEvents({ ...trained, termination: 'infra_failure', reward: null }).events;
    expect(excluded.map((e) => e.kind)).not.toContain('update');
  });

  it('says an on-policy update and a zero advantage plainly', () => {
    const update = (u: NonNullable<NonNullable<Rollout['training']>['update']>, step?: number) =>
      buildRoleEvents({ ...ARTICLE, training_step: step, training: { sequence_ids: [1, 7], loss_mask: [0, 1], update: u } }).events.at(-1);
    const t = update({ step: 0, advantage: 0, tokens: 1 }, 0);
    expect(t?.title).toBe('update 0 · A 0.000');
    expect(t?.detail).toBe('1 token trained');
    expect(t?.caption).toBe(
      'The trainer’s update 0 gives this rollout advantage 0.000 in its group: equal rewards in its group, so it pushes nothing; 1 token trained. It was sampled by these same weights.',
    );
    expect(update({ advantage: -1.5 })?.title).toBe('update · A −1.500');
  });

  it('writes calls and observations short', () => {
    expect(callText({ tool: 'edit', args: { path: 'search.py', old: 'a', new: 'b' } })).toBe('edit(search.py)');
    expect(callText({ tool: 'run_tests', args: {} })).toBe('run_tests()');
    expect(callText({ tool: 'run_tests' })).toBe('run_tests()');
    expect(callText({ tool: 'lookup', args: { n: 1 } })).toBe('lookup(…)');
    expect(observationText({ tool_call_id: 'c', tool: 'read_file', args: { path: 'a.py' }, observation: { text: 'x\ny\n' } })).toBe(
      'a.py: 2 lines',
    );
    expect(observationText({ tool_call_id: 'c', tool: 'x', observation: { text: `${'long '.repeat(20)}\nmore` } })).toHaveLength(48);
  });
});
