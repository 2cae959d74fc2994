import { describe, expect, it } from 'vitest';
import { encodeIndexShard, type IndexRow } from '../../format';
import { appendShard, decodeShard, mergePart, partBuffers, RunColumns } from './runColumns';

const row = (k: number, over: Partial<IndexRow> = {}): IndexRow => ({
  file: `f${k % 2}.jsonl`,
  line: k + 1,
  offset: k * 5_000_000_000,
  length: 100 + k,
  task_id: `t${k % 3}`,
  rollout_id: `r-${k}-é`,
  attempt_id: k % 4 === 0 ? null : 'a-1',
  group_id: `g${k >> 1}`,
  policy_version: null,
  training_step: k === 3 ? null : k >> 2,
  training_step_from: 'record',
  termination: k % 5 === 0 ? 'infra_failure' : 'finished',
  in_signal: k % 5 !== 0,
  reward: k % 5 === 0 ? null : k / 10,
  source_format: 'v1',
  segments: 1,
  steps: 70_000,
  generated_tokens: 10 * k,
  context_tokens: 0,
  trained_tokens: 0,
  regressions: k % 2,
  errors: 0,
  warnings: 1,
  finding_codes: k % 3 === 0 ? ['W_HIT_MAX_TOKENS', 'W_MISSING_METADATA'] : k % 3 === 1 ? ['E_REWARD_MISSING'] : [],
  truncated: k % 3 === 0,
  mismatch_n: null,
  mismatch_mean_abs: null,
  mismatch_max_abs: k % 2 ? 0.5 : null,
  mismatch_ratio_mean: null,
  mismatch_ratio_clip_frac: null,
  mismatch_kl_k3: null,
  started_at: null,
  ended_at: null,
  ...over,
});

const view = (c: RunColumns) =>
  Array.from({ length: c.n }, (_, i) => ({
    file: c.file.at(i),
    task: c.task.at(i),
    id: c.rolloutId.at(i),
    attempt: c.attempt.at(i),
    group: c.group.at(i),
    term: c.termination.at(i),
    offset: c.offset[i],
    step: c.step[i],
    reward: c.reward[i],
    steps: c.steps[i],
    codes: c.codeNames.filter((_, b) => ((c.codes[i] ?? 0) & (1 << b)) !== 0).sort(),
    mm: c.mismatchMax[i],
  }));

describe('run columns', () => {
  const a = Array.from({ length: 6 }, (_, k) => row(k));
  const b = Array.from({ length: 5 }, (_, k) => row(k + 6, { task_id: 'other', finding_codes: k === 0 ? ['W_LOGPROB_DRIFT'] : [] }));

  it('hold each shard’s rows: dictionaries, 64-bit offsets, nulls as NaN / -1, counts clamped to 16 bits, codes as bits', async () => {
    const c = new RunColumns(2);
    await appendShard(c, encodeIndexShard(a), a.length, 'a');
    const v = view(c);
    expect(v[1]).toEqual({
      file: 'f1.jsonl',
      task: 't1',
      id: 'r-1-é',
      attempt: 'a-1',
      group: 'g0',
      term: 'finished',
      offset: 5e9,
      step: 0,
      reward: 0.1,
      steps: 65535,
      codes: ['E_REWARD_MISSING'],
      mm: 0.5,
    });
    expect(v[0]).toMatchObject({
      attempt: null,
      reward: Number.NaN,
      term: 'infra_failure',
      codes: ['W_HIT_MAX_TOKENS', 'W_MISSING_METADATA'],
    });
    expect(v[3]?.step).toBe(-1);
    expect(Number.isNaN(v[2]?.mm)).toBe(true);
    await expect(appendShard(c, encodeIndexShard(a), 5, 'short')).rejects.toThrow(/short/);
  });

  it('merge a shard decoded elsewhere (a worker) into the same columns as reading it here', async () => {
    const here = new RunColumns(4);
    await appendShard(here, encodeIndexShard(a), a.length, 'a');
    await appendShard(here, encodeIndexShard(b), b.length, 'b');
    const merged = new RunColumns(4);
    // Decoded in the other order: dictionaries and finding-code bits differ per part, and are mapped.
    const pb = await decodeShard(encodeIndexShard(b), b.length, 'b');
    const pa = await decodeShard(encodeIndexShard(a), a.length, 'a');
    expect(partBuffers(pa).every((x) => x instanceof ArrayBuffer)).toBe(true);
    mergePart(merged, pa);
    mergePart(merged, pb);
    expect(view(merged)).toEqual(view(here));
    expect(merged.n).toBe(11);
  });
});
