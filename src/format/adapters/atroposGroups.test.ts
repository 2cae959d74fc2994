import { describe, expect, it } from 'vitest';
import { logprobsRecorded } from '../additions';
import { parseText } from './fixtures';
import { REAL_DATA_MISSING, readReal } from './fixtures/sharedData';

describe('Atropos ScoredDataGroup', () => {
  it('each trained run (mask not -100) is a generation; the loss mask is exactly what was trained', () => {
    const line = {
      tokens: [[1, 2, 3, 4, 5, 6]],
      masks: [[-100, -100, 3, -100, 5, 6]],
      scores: [0.5],
      inference_logprobs: [[1, 1, -0.3, 1, -0.5, -0.6]],
    };
    const { results } = parseText(`${JSON.stringify(line)}\n`, 'g.jsonl');
    const r = results[0]?.kind === 'rollout' ? results[0].value.record : undefined;
    expect(r?.training).toEqual({ sequence_ids: [1, 2, 3, 4, 5, 6], loss_mask: [0, 0, 1, 0, 1, 1] });
    expect(r?.segments.map((s) => [s.input_ids, s.generated_ids, s.old_logprobs])).toEqual([
      [[1, 2], [3], [-0.3]],
      [
        [1, 2, 3, 4],
        [5, 6],
        [-0.5, -0.6],
      ],
    ]);
    expect(r?.segments.every(logprobsRecorded)).toBe(true);
  });

  it('a mask that does not cover every token is the line’s error, naming the field', () => {
    const { results } = parseText(`${JSON.stringify({ tokens: [[1, 2]], masks: [[-100]], scores: [1] })}\n`, 'g.jsonl');
    expect(results[0]?.value).toMatchObject({ code: 'E_SCHEMA', message: expect.stringContaining('masks[0]: expected 2 labels') });
  });
});

describe.skipIf(REAL_DATA_MISSING !== null)(`Atropos on real files ${REAL_DATA_MISSING ?? ''}`, () => {
  it('objreward.jsonl: 2 groups of 8, every member a rollout with its score, tokens and trained span', () => {
    const { rollouts, errors, format } = readReal('atropos-scored-groups/objreward.jsonl');
    expect(errors).toEqual([]);
    expect(format).toBe('atropos-groups');
    expect(rollouts).toHaveLength(16);
    const r = rollouts[0]?.record;
    expect(r).toMatchObject({
      group_id: 'atropos-scored-groups/objreward.jsonl:1',
      rollout_id: 'atropos-scored-groups/objreward.jsonl:1/tokens[0]',
    });
    expect(r?.reward).toBeCloseTo(0.18604651162790697, 15);
    expect(r?.training?.sequence_ids).toHaveLength(993);
    expect(r?.training?.loss_mask.reduce<number>((a, b) => a + b, 0)).toBe(512);
    expect(r?.segments).toHaveLength(1);
    expect([r?.segments[0]?.input_ids.length, r?.segments[0]?.generated_ids.slice(0, 3), r?.segments[0]?.generated_ids.at(-1)]).toEqual([
      481,
      [14023, 771, 397],
      128009,
    ]);
    // No behaviour log-probabilities in this file: recorded as absent, not as a length defect.
    expect(r?.segments[0]?.old_logprobs).toEqual([]);
    expect(logprobsRecorded(r?.segments[0] as NonNullable<typeof r>['segments'][number])).toBe(false);
    expect(typeof (r?.extra as Record<string, unknown> | undefined)?.messages).toBe('string');
    expect(new Set(rollouts.map((x) => x.record.group_id)).size).toBe(2);
  });

  it('rubiks_process_results_20.jsonl: 6 groups of 4; per-member fields (parsed_actions) on the member, the seed on the group', () => {
    const { rollouts, errors } = readReal('atropos-scored-groups/rubiks_process_results_20.jsonl');
    expect(errors).toEqual([]);
    expect(rollouts).toHaveLength(24);
    const r = rollouts[7]?.record;
    expect(r?.rollout_id).toBe('atropos-scored-groups/rubiks_process_results_20.jsonl:2/tokens[3]');
    expect(r?.reward).toBeCloseTo(-0.3951851851851852, 15);
    expect(r?.segments[0]?.generated_ids).toEqual([14023, 771, 29, 128009]);
    expect(r?.extra).toMatchObject({ parsed_actions: null, group: { seed: 126150 } });
    expect((r?.extra as Record<string, unknown> | undefined)?.group).not.toHaveProperty('parsed_actions');
  });
});
