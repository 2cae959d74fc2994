import { describe, expect, it } from 'vitest';
import { buildRollout, toJsonl } from '../../testing/builders';
import { chunkedFile } from '../../testing/chunks';
import { expandRollout } from '../compact';
import type { FromWorker } from './protocol';
import { createWorkerSession } from './session';

const encode = (text: string) => new TextEncoder().encode(text);
/** Small chunks, so a load spans several snapshots. */
const CHUNK = 64;

describe('worker session', () => {
  it('sends every record once across snapshots, with its buffers in the transfer list', async () => {
    const messages: { message: FromWorker; transfer: Transferable[] }[] = [];
    const handle = createWorkerSession((message, transfer) => messages.push({ message, transfer }));
    const records = Array.from({ length: 30 }, (_, i) => buildRollout({ rollout_id: `r-${i}` }));
    await handle({
      type: 'load',
      sources: [{ kind: 'file', id: 'a', name: 'a.jsonl', file: chunkedFile(encode(toJsonl(records)), 'a.jsonl', CHUNK) }],
      follow: [false],
    });
    const snapshots = messages.flatMap((m) => (m.message.type === 'snapshot' ? [m] : []));
    const received = snapshots.flatMap((m) => (m.message.type === 'snapshot' ? m.message.snapshot.records : []));
    expect(received.map((r) => expandRollout(r).rollout_id)).toEqual(records.map((r) => r.rollout_id));
    expect(received.map(expandRollout)).toEqual(records);
    const last = snapshots[snapshots.length - 1]?.message;
    expect(last?.type === 'snapshot' && last.done).toBe(true);
    expect(last?.type === 'snapshot' && last.snapshot.result.report.summary.rollouts).toBe(30);
    expect(snapshots.flatMap((m) => m.transfer).length).toBe(30);
    expect(messages.some((m) => m.message.type === 'progress')).toBe(true);
  });

  it('holds back a followed source’s partial last line and completes it on append', async () => {
    const messages: FromWorker[] = [];
    const handle = createWorkerSession((m) => messages.push(m));
    const a = JSON.stringify(buildRollout({ rollout_id: 'a' }));
    const b = JSON.stringify(buildRollout({ rollout_id: 'b' }));
    await handle({
      type: 'load',
      sources: [{ kind: 'file', id: 'f', name: 'f.jsonl', file: chunkedFile(encode(`${a}\n${b.slice(0, 10)}`), 'f.jsonl', CHUNK) }],
      follow: [true],
    });
    const after = messages.filter((m) => m.type === 'snapshot').pop();
    expect(after?.type === 'snapshot' && after.snapshot.result.pending).toEqual([{ file: 'f.jsonl', line: 2, bytes: 10 }]);
    await handle({ type: 'append', source: 0, bytes: new TextEncoder().encode(`${b.slice(10)}\n`).buffer });
    const appended = messages.filter((m) => m.type === 'snapshot').pop();
    expect(appended?.type === 'snapshot' && appended.snapshot.records.map((r) => expandRollout(r).rollout_id)).toEqual(['b']);
    expect(appended?.type === 'snapshot' && appended.snapshot.result.report.summary.rollouts).toBe(2);
  });

  it('reports a source that cannot be read as an error message', async () => {
    const messages: FromWorker[] = [];
    const handle = createWorkerSession((m) => messages.push(m));
    const gz = new File([new Uint8Array([0x1f, 0x8b, 1, 2, 3])], 'bad.jsonl.gz');
    await handle({ type: 'load', sources: [{ kind: 'file', id: 'g', name: 'bad.jsonl.gz', file: gz }], follow: [false] });
    expect(messages.pop()).toMatchObject({ type: 'error', error: { reason: 'decompress', source: 'bad.jsonl.gz' } });
  });
});
