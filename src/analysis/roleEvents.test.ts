import { describe, expect, it } from 'vitest';
import { buildChain, buildRollout } from '../testing/builders';
import { runPass } from './passes';
import { rolePageEvents, rolePagesPass, roleTimeline } from './roleEvents';

const finished = buildRollout({
  ...buildChain([{ tool: 'edit' }, { tool: 'run_tests' }, { tool: 'finish' }]),
  grading: { verdict: 'pass', private_tests: { passed: 4, failed: 0 }, artifact: '--- a\n+++ b\n-x\n+y\n' },
});

describe('roleTimeline: the four roles as facts', () => {
  it('gives each step a generation, dispatch, execution and observation; the last observation never reaches the model', () => {
    const { events, excluded } = roleTimeline(finished);
    expect(excluded).toBe(false);
    expect(events.map((e) => e.kind)).toEqual([
      ...Array(3).fill(['generate', 'dispatch', 'execute', 'observe']).flat(),
      'grade',
      'score',
      'consume',
    ]);
    const observations = events.filter((e) => e.kind === 'observe');
    expect(observations.map((e) => e.kind === 'observe' && e.toModel)).toEqual([true, true, false]);
    expect(observations[0]?.flows).toEqual([{ kind: 'observation', from: 'environment', to: 'model', via: 'harness' }]);
  });

  it('takes the private tests from the grading, sends the grade to the trainer only, and names where the reward comes from', () => {
    const { events } = roleTimeline(finished);
    const grade = events.find((e) => e.kind === 'grade');
    expect(grade).toMatchObject({
      verdict: 'pass',
      privateTests: { passed: 4, failed: 0 },
      flows: [{ kind: 'submission', from: 'environment' }],
    });
    expect(events.find((e) => e.kind === 'score')?.flows).toEqual([{ kind: 'private-grade', from: 'grader', to: 'trainer', via: null }]);
    expect(events.at(-1)).toMatchObject({ kind: 'consume', reward: 1, source: 'private-grade', generations: 3, trainedTokens: null });
    const budget = roleTimeline(buildRollout({ ...buildChain([{ tool: 'read_file' }]), termination: 'budget_exhausted', reward: 0 }));
    expect(budget.events.slice(-2).map((e) => e.kind)).toEqual(['stop', 'consume']);
    expect(budget.events.at(-1)).toMatchObject({ source: 'task-contract', reward: 0 });
  });

  it('marks a duplicate execution and a rejected last call, and ends an excluded rollout short of the trainer', () => {
    const dup = roleTimeline(buildRollout(buildChain([{ tool: 'edit', executions: 2 }])));
    expect(dup.events.find((e) => e.kind === 'execute')).toMatchObject({ executions: 2, tone: 'error' });
    const invalid = roleTimeline(
      buildRollout({ ...buildChain([{ tool: 'rm_rf', executions: 0 }]), termination: 'invalid_call', reward: 0 }),
    );
    expect(invalid.events.map((e) => e.kind)).toEqual(['generate', 'reject', 'consume']);
    const infra = roleTimeline(buildRollout({ ...buildChain([{ tool: 'run_tests' }]), termination: 'infra_failure', reward: null }));
    expect(infra.excluded).toBe(true);
    expect(infra.events.map((e) => e.kind)).toEqual(['generate', 'dispatch', 'execute', 'excluded']);
    expect(infra.events.some((e) => e.lane === 'trainer')).toBe(false);
  });
});

describe('rolePagesPass / rolePageEvents: a huge rollout in pages of turns', () => {
  const t = (s: number) => `2026-01-01T00:00:${String(s).padStart(2, '0')}.000Z`;
  const tools = Array.from({ length: 23 }, (_, i) => ({
    tool: i === 22 ? 'finish' : 'run_tests',
    started_at: t(i * 2),
    ended_at: t(i * 2 + 1),
  }));
  const records = [
    buildRollout({ ...buildChain(tools), started_at: t(0), ended_at: t(59), grading: { verdict: 'pass' } }),
    buildRollout({ ...buildChain(tools.slice(0, 9)), termination: 'infra_failure' }),
    buildRollout({ segments: [], steps: [] }),
  ];

  it('makes, page after page, exactly the events of the whole rollout, with its totals', () => {
    for (const record of records) {
      const whole = roleTimeline(record);
      for (const per of [1, 4, 7, 1000]) {
        const pages = runPass(rolePagesPass(record, per));
        const paged = Array.from({ length: pages.starts.length - 1 }, (_, p) => rolePageEvents(record, pages, p));
        expect(paged.flat()).toEqual(whole.events);
        paged.forEach((events, p) => {
          expect(events).toHaveLength((pages.starts[p + 1] ?? 0) - (pages.starts[p] ?? 0));
        });
        expect({ timed: pages.timed, totalMs: pages.totalMs, excluded: pages.excluded }).toEqual({
          timed: whole.timed,
          totalMs: whole.totalMs,
          excluded: whole.excluded,
        });
      }
    }
  });
});
