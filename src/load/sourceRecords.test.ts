import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildRollout, toJsonl } from '../testing/builders';
import { sourceRecordReader } from './sourceRecords';
import { fileSource } from './sources';

const records = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) =>
    buildRollout({
      rollout_id: `${prefix}-${i + 1}`,
      // A value float32 would round, and keys in an order of their own: both must come back as written.
      reward: 0.1234567890123456,
      training: { sequence_ids: [1, 2], loss_mask: [0, 1], logprobs: [null, -0.14072765949511756] },
    }),
  );
const a = records('a', 5);
const b = records('b', 3);
const sources = [
  fileSource('local:a.jsonl', new File([toJsonl(a)], 'a.jsonl')),
  fileSource('local:b.jsonl.gz', new File([gzipSync(toJsonl(b))], 'b.jsonl.gz')),
];
const at = (file: string, line: number, id: string) => ({ file, line, rollout_id: id, attempt_id: 'a-1' });

describe('sourceRecordReader', () => {
  it('reads the chosen rollouts again, as written, in order, across plain and gzip sources', async () => {
    const chosen = [at('a.jsonl', 2, 'a-2'), at('a.jsonl', 5, 'a-5'), at('b.jsonl.gz', 1, 'b-1')];
    const reader = sourceRecordReader(sources, chosen);
    // Asked all at once, before any is read: each still gets its own.
    const got = await Promise.all(chosen.map((c) => reader.read(c)));
    expect(got.map((r) => JSON.stringify(r))).toEqual([a[1], a[4], b[0]].map((r) => JSON.stringify(r)));
  });

  it('says which rollout is not where it was', async () => {
    const reader = sourceRecordReader(sources, [at('a.jsonl', 3, 'a-9')]);
    await expect(reader.read(at('a.jsonl', 3, 'a-9'))).rejects.toThrow('a.jsonl:3: rollout a-9 is no longer in the file');
  });
});
