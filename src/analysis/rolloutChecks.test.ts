import { describe, expect, it } from 'vitest';
import type { Rollout } from '../format';
import { buildChain, buildRollout, buildTrainedChain, lintCodes as find } from '../testing/builders';
import { rolloutFindings } from './rolloutChecks';

describe('rollout checks (§7): termination, reward, metadata, and a clean record', () => {
  it('a builder rollout, a chain and a correct training record are clean', () => {
    expect(find(buildRollout())).toEqual([]);
    expect(find(buildRollout(buildChain([{ tool: 'read_file' }, { tool: 'edit' }, { tool: 'finish' }])))).toEqual([]);
    expect(find(buildTrainedChain())).toEqual([]);
  });

  it('W_UNKNOWN_TERMINATION', () => {
    expect(find(buildRollout({ termination: 'exploded' })).map((f) => f.code)).toEqual(['W_UNKNOWN_TERMINATION']);
  });

  it('W_MISSING_METADATA: one finding naming what is missing', () => {
    const r = buildRollout({ tokenizer: { name: 'qwen' }, sampling: undefined });
    const f = rolloutFindings(r);
    expect(f.map((x) => x.code)).toEqual(['W_MISSING_METADATA']);
    expect(f[0]?.message).toBe('missing tokenizer.version, sampling');
  });

  it('W_MISSING_METADATA accepts the grader version from grading.grader', () => {
    const r = buildRollout({ grader: undefined, grading: { verdict: 'pass', grader: { name: 'g', version: '2' } } });
    expect(find(r)).toEqual([]);
    expect(find(buildRollout({ grader: undefined })).map((f) => f.code)).toEqual(['W_MISSING_METADATA']);
  });

  it('the minimal record lints clean apart from metadata warnings', () => {
    const minimal: Rollout = {
      task_id: 'binary-search-001',
      rollout_id: 'r-003',
      attempt_id: 'a-001',
      policy_version: 'v-012',
      environment_version: 'image-and-repo-digest',
      segments: [{ input_ids: [101, 202], generated_ids: [303, 404], old_logprobs: [-0.7, -0.4], tool_call_id: 'c-001' }],
      termination: 'finished',
      reward: 1.0,
    };
    expect(find(minimal).map((f) => f.code)).toEqual(['W_MISSING_METADATA']);
  });
});
