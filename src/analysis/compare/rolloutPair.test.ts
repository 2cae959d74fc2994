import { describe, expect, it } from 'vitest';
import { buildRollout, buildSegment, buildStep } from '../../testing/builders';
import { alignRollouts, argsText, firstDivergentGeneration, textChanges } from './rolloutPair';

describe('rollout pair', () => {
  const a = buildRollout({
    segments: [buildSegment({ generated_ids: [5, 6, 7], old_logprobs: [-0.1, -0.2, -0.3], generated_tokens: ['a', 'b', 'c'] })],
    steps: [buildStep({ tool: 'edit', args: { path: 'x.py', new: 'low = mid + 1' }, observation: { text: 'ok\n3 passed\n' } })],
  });
  const b = buildRollout({
    segments: [buildSegment({ generated_ids: [5, 9], old_logprobs: [-0.1, -2.5], generated_tokens: ['a', 'z'] })],
    steps: [buildStep({ tool: 'edit', args: { new: 'low = mid', path: 'x.py' }, observation: { text: 'ok\n1 failed\n' } })],
  });

  it('an edited call sits beside its counterpart, with an argument diff by line', () => {
    expect(alignRollouts(a, b).rows).toEqual([{ kind: 'changed', a: 0, b: 0 }]);
    const [sa, sb] = [a.steps?.[0], b.steps?.[0]];
    if (!sa || !sb) throw new Error('steps');
    const changes = textChanges(argsText(sa), argsText(sb));
    expect(changes?.filter((c) => c.removed).map((c) => c.value.trim())).toEqual(['"new": "low = mid + 1",']);
    expect(changes?.filter((c) => c.added).map((c) => c.value.trim())).toEqual(['"new": "low = mid",']);
    expect(textChanges('ok\n3 passed\n', 'ok\n1 failed\n')?.map((c) => [c.value, !!c.added, !!c.removed])).toEqual([
      ['ok\n', false, false],
      ['3 passed\n', false, true],
      ['1 failed\n', true, false],
    ]);
  });

  it('finds the first divergent generation and the log-probability of each side’s token there', () => {
    const d = firstDivergentGeneration(a, b);
    expect(d).toMatchObject({ segment: 0, index: 1 });
    expect(d?.a.token).toEqual({ index: 1, id: 6, text: 'b', logprob: -0.2 });
    expect(d?.b.token).toEqual({ index: 1, id: 9, text: 'z', logprob: -2.5 });
    expect(d?.b.sumLogprob).toBeCloseTo(-2.6);
    expect(firstDivergentGeneration(a, a)).toBeNull();
  });

  it('a generation that is a prefix of the other diverges where the shorter ends', () => {
    const short = buildRollout({ segments: [buildSegment({ generated_ids: [5, 6], old_logprobs: [-0.1, -0.2] })] });
    const d = firstDivergentGeneration(a, short);
    expect(d?.index).toBe(2);
    expect(d?.b.token).toBeNull();
    expect(d?.a.token?.id).toBe(7);
  });
});
