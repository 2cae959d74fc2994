import { describe, expect, it } from 'vitest';
import { fileNameStep } from './rows';

describe('the training step a file name gives', () => {
  it('reads the number after "step", else the only number, else nothing', () => {
    expect(fileNameStep('run/step_0012.jsonl')).toBe(12);
    expect(fileNameStep('global_step12.jsonl.gz')).toBe(12);
    expect(fileNameStep('w3/Step-7-of-run2.jsonl')).toBe(7);
    expect(fileNameStep('12.jsonl')).toBe(12);
    expect(fileNameStep('run3-2026-11-30.jsonl')).toBeNull();
    expect(fileNameStep('rollouts.jsonl')).toBeNull();
    expect(fileNameStep('99999999999.jsonl')).toBeNull();
  });
});
