import { describe, expect, it } from 'vitest';
import { parseText } from './fixtures';
import { REAL_DATA_MISSING, readReal } from './fixtures/sharedData';

describe('veRL rollout dumps', () => {
  it('a step that is not a training step is the line’s own error, naming the field', () => {
    const { results } = parseText('{"input":"p","output":"o","score":1,"step":"x"}\n', '3.jsonl');
    expect(results[0]?.value).toMatchObject({ code: 'E_SCHEMA', message: expect.stringContaining('step: expected the training step') });
  });
});

describe.skipIf(REAL_DATA_MISSING !== null)(`veRL on real files ${REAL_DATA_MISSING ?? ''}`, () => {
  it('verl-rollout-sdpo/1.jsonl: every line a rollout, score the reward, step the training step, reward extras kept', () => {
    const { rollouts, errors, format } = readReal('verl-rollout-sdpo/1.jsonl');
    expect(errors).toEqual([]);
    expect(format).toBe('verl-rollouts');
    expect(rollouts.map((r) => [r.line, r.record.reward, r.record.training_step, r.record.termination])).toEqual([
      [1, 0, 1, 'unknown'],
      [2, 0, 1, 'unknown'],
      [3, 1, 1, 'unknown'],
    ]);
    const third = rollouts[2]?.record;
    expect(third?.segments).toHaveLength(1);
    expect(third?.segments[0]?.text).toContain('Action: parseExpression');
    expect(third?.task?.prompt?.startsWith('system\nYou are Qwen, created by Alibaba Cloud.')).toBe(true);
    expect(third?.extra).toMatchObject({
      acc: 1,
      incorrect_format: 0,
      pred: "Actions: ['parseExpression'], Inputs: {'expression': '3 * (x + y) - z'}",
    });
    expect((third?.extra as Record<string, unknown> | undefined)?.gts).toContain('parseExpression');
  });
});
