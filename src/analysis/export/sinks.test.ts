import { describe, expect, it } from 'vitest';
import type { Rollout } from '../../format';
import { buildRollout, buildSummary } from '../../testing/builders';
import type { RolloutSummary } from '../types';
import { type Chosen, closeSink, dpoSink, type ExportSink, sftSink, TextLines, v1Sink } from './sinks';

/** A converted record whose transcript is a prompt and one model answer. */
const answered = (answer: string, over: Partial<Rollout> = {}): Rollout =>
  buildRollout({
    transcript: [
      { role: 'user', content: 'Fix search.py' },
      { role: 'assistant', content: answer },
    ],
    ...over,
  } as Partial<Rollout>);

const chosen = (record: Rollout, summary: Partial<RolloutSummary>, line: number): Chosen => ({
  record,
  summary: buildSummary({ rollout_id: record.rollout_id, line, ...summary }),
  provenance: { file: 'a.jsonl', line, rollout_key: `${record.rollout_id}#a-1`, where: 'term:finished' },
});

function run(sink: ExportSink, out: TextLines, items: Chosen[]) {
  for (const c of items) sink.take(c);
  closeSink(sink);
  return out.chunks
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('the export sinks', () => {
  it('v1 writes each record as read, with its provenance, one JSON line each', () => {
    const out = new TextLines();
    const r = buildRollout({ rollout_id: 'r-9' });
    const lines = run(v1Sink(out), out, [chosen(r, {}, 3)]);
    expect(lines).toEqual([{ ...r, provenance: { file: 'a.jsonl', line: 3, rollout_key: 'r-9#a-1', where: 'term:finished' } }]);
    expect(out.chunks.join('').endsWith('}\n')).toBe(true);
  });

  it('sft keeps rewarded rollouts in the signal, and counts why each other one is skipped', () => {
    const out = new TextLines();
    const sink = sftSink(out, () => null);
    const lines = run(sink, out, [
      chosen(answered('fixed', { rollout_id: 'r-1' }), { reward: 1 }, 1),
      chosen(answered('gave up', { rollout_id: 'r-2' }), { reward: 0 }, 2),
      chosen(answered('crashed', { rollout_id: 'r-3' }), { termination: 'infra_failure' }, 3),
      // No transcript and no token text: nothing to write.
      chosen(buildRollout({ rollout_id: 'r-4' }), { reward: 1 }, 4),
    ]);
    expect(lines.map((l) => (l.provenance as { line: number }).line)).toEqual([1]);
    expect(lines[0]?.messages).toEqual([
      { role: 'user', content: 'Fix search.py' },
      { role: 'assistant', content: 'fixed' },
    ]);
    expect([...sink.skips.counts.values()].map((c) => [c.why, c.n])).toEqual([
      ['not rewarded (reward ≤ 0 or none)', 1],
      ['excluded (not in the policy signal)', 1],
      ['with no token text or transcript', 1],
    ]);
  });

  it('dpo pairs a group’s best and worst at the end, a line per step of its closing', () => {
    const out = new TextLines();
    const sink = dpoSink(out, 'task:t', () => null);
    sink.take(chosen(answered('wrong', { rollout_id: 'r-1' }), { reward: 0, group_id: 'g' }, 1));
    sink.take(chosen(answered('right', { rollout_id: 'r-2' }), { reward: 1, group_id: 'g' }, 2));
    sink.take(chosen(answered('same', { rollout_id: 'r-3' }), { reward: 1, group_id: 'h' }, 3));
    expect(out.lines).toBe(0);
    const steps = sink.closing();
    expect(steps.next().done).toBe(false);
    expect(out.lines).toBe(1);
    expect(steps.next().done).toBe(true);
    const [pair] = out.chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(pair).toMatchObject({
      prompt: [{ role: 'user', content: 'Fix search.py' }],
      chosen: [{ role: 'assistant', content: 'right' }],
      rejected: [{ role: 'assistant', content: 'wrong' }],
      reward_chosen: 1,
      reward_rejected: 0,
      group_id: 'g',
      provenance: {
        where: 'task:t',
        chosen: { file: 'a.jsonl', line: 2, rollout_key: 'r-2#a-1' },
        rejected: { file: 'a.jsonl', line: 1, rollout_key: 'r-1#a-1' },
      },
    });
    expect([...sink.skips.counts.values()].map((c) => [c.noun, c.why, c.n])).toEqual([['group', 'with no reward gap', 1]]);
  });
});
