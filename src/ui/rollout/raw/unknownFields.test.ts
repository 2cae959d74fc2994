import { describe, expect, it } from 'vitest';
import type { Rollout } from '../../../format';
import { unknownFields } from './unknownFields';

const base: Rollout = {
  task_id: 't',
  rollout_id: 'r',
  segments: [{ input_ids: [1], generated_ids: [2], old_logprobs: [-1], tool_call_id: 'c' }],
  steps: [{ tool_call_id: 'c', tool: 'finish' }],
  termination: 'finished',
  reward: 1,
};

describe('unknownFields', () => {
  it('is empty for a record of known fields only', () => {
    expect(unknownFields(base)).toEqual([]);
  });

  it('names unknown fields of the record, its segments and its steps once each', () => {
    const record: Rollout = {
      ...base,
      scenario: { name: 'x' },
      segments: [
        { ...base.segments[0], note: 1 },
        { ...base.segments[0], note: 2 },
      ] as Rollout['segments'],
      steps: [{ tool_call_id: 'c', tool: 'finish', cost_usd: 0.1 }],
    };
    expect(unknownFields(record)).toEqual(['scenario', 'segments[*].note', 'steps[*].cost_usd']);
  });
});
