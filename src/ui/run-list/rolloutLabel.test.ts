import { describe, expect, it } from 'vitest';
import { rolloutLabel } from './rolloutLabel';

describe('rolloutLabel', () => {
  it('shows an id made from its file after the file name, which the row shows already', () => {
    const file = '2024-05-29T12-38-43_popularity_dPzCJ.eval';
    expect(rolloutLabel({ file, rollout_id: `${file}:samples/5_epoch_1.json` })).toBe('samples/5_epoch_1.json');
    expect(rolloutLabel({ file: 'out.jsonl', rollout_id: 'out.jsonl:7' })).toBe('line 7');
    expect(rolloutLabel({ file: 'log.json', rollout_id: 'log.json:1/samples[2]' })).toBe('1/samples[2]');
  });

  it('keeps an id of the source whole', () => {
    expect(rolloutLabel({ file: 'out.jsonl', rollout_id: 'r-s0000-g1-02' })).toBe('r-s0000-g1-02');
    expect(rolloutLabel({ file: 'out.jsonl', rollout_id: 'out.jsonl:' })).toBe('out.jsonl:');
  });
});
