import { describe, expect, it } from 'vitest';
import type { Rollout } from '../../format';
import { buildRollout, buildSummary } from '../../testing/builders';
import { exportSelection, type SelectionExport } from './selection';

const records = ['r-1', 'r-2', 'r-3'].map((id) => buildRollout({ rollout_id: id }));
const selected = records.map((r, i) => ({
  summary: buildSummary({ rollout_id: r.rollout_id, line: i + 1, file: 'f.jsonl' }),
  key: r.rollout_id,
}));
const byKey = new Map(records.map((r) => [r.rollout_id, r]));

const job = (over: Partial<SelectionExport> = {}): SelectionExport => ({
  format: 'v1',
  where: 'reward>0',
  selected,
  read: ({ key }) => byKey.get(key),
  tokenText: () => null,
  ...over,
});

const linesOf = (chunks: string[]) =>
  chunks
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Rollout & { provenance: unknown });

describe('exportSelection', () => {
  it('writes the selection in order with each record’s provenance, from reads at once or by promise', async () => {
    const progress: number[] = [];
    const late = await exportSelection(
      job({
        // Later reads resolve first: the output keeps the selection's order.
        read: ({ key }) => new Promise((resolve) => setTimeout(() => resolve(byKey.get(key) as Rollout), key === 'r-1' ? 20 : 1)),
        onProgress: (done) => progress.push(done),
      }),
    );
    const now = await exportSelection(job());
    expect(late.chunks.join('')).toBe(now.chunks.join(''));
    expect(progress).toEqual([1, 2, 3]);
    expect(now.written).toBe(3);
    expect(linesOf(now.chunks).map((l) => [l.rollout_id, l.provenance])).toEqual([
      ['r-1', { file: 'f.jsonl', line: 1, rollout_key: 'r-1', where: 'reward>0' }],
      ['r-2', { file: 'f.jsonl', line: 2, rollout_key: 'r-2', where: 'reward>0' }],
      ['r-3', { file: 'f.jsonl', line: 3, rollout_key: 'r-3', where: 'reward>0' }],
    ]);
  });

  it('keeps at most `ahead` reads in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await exportSelection(
      job({
        ahead: 2,
        read: ({ key }) => {
          inFlight++;
          most = Math.max(most, inFlight);
          return new Promise((resolve) =>
            setTimeout(() => {
              inFlight--;
              resolve(byKey.get(key) as Rollout);
            }, 2),
          );
        },
      }),
    );
    expect(most).toBe(2);
  });

  it('gives way between slices, and stops with the signal’s reason when cancelled', async () => {
    let pauses = 0;
    await exportSelection(job({ sliceMs: 0, pause: async () => void pauses++ }));
    expect(pauses).toBeGreaterThanOrEqual(3);

    const controller = new AbortController();
    const stopped = exportSelection(
      job({
        signal: controller.signal,
        sliceMs: 0,
        pause: async () => controller.abort(new Error('cancelled by the person')),
      }),
    );
    await expect(stopped).rejects.toThrow('cancelled by the person');
  });

  it('fails, naming the key, when a selected rollout is no longer in the data', async () => {
    await expect(exportSelection(job({ read: ({ key }) => (key === 'r-2' ? undefined : byKey.get(key)) }))).rejects.toThrow(
      'rollout r-2 is no longer in the data',
    );
  });

  it('waits for the token text before a record is decoded (sft, dpo), and never asks for it in v1', async () => {
    const asked: string[] = [];
    const tokenText = async (r: Rollout) => {
      asked.push(r.rollout_id);
      return null;
    };
    await exportSelection(job({ tokenText }));
    expect(asked).toEqual([]);
    const sft = await exportSelection(job({ format: 'sft', tokenText }));
    expect(asked).toEqual(['r-1', 'r-2', 'r-3']);
    // The builders' records carry neither token strings nor a transcript: each is skipped, and says why.
    expect(sft.written).toBe(0);
    expect([...sft.skips.counts.values()].map((c) => c.n)).toEqual([3]);
  });
});
