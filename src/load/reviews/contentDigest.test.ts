import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decompressIfGzip } from '../../format';
import type { Bytes } from '../byteStream';
import { digestStream } from './contentDigest';
import { memoryReviewDb } from './reviewDb';

function streamOf(bytes: Uint8Array, chunk: number): ReadableStream<Bytes> {
  let at = 0;
  return new ReadableStream<Bytes>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.slice(at, at + chunk)));
      at += chunk;
    },
  });
}

const TEXT = new TextEncoder().encode(`${'{"rollout_id":"r-1","note":"ü→✓"}\n'.repeat(5000)}`);
const EXPECTED = `sha256:${createHash('sha256').update(TEXT).digest('hex')}`;

describe('digestStream', () => {
  it('hashes incrementally to the same digest whatever the chunk size', async () => {
    for (const chunk of [1 << 16, 1000, 7]) expect(await digestStream(streamOf(TEXT, chunk))).toBe(EXPECTED);
  });

  it('cuts a chunk larger than a slice into slices and still hashes all of it', async () => {
    const big = new Uint8Array(1_300_000).map((_, i) => (i * 31) % 251);
    const want = `sha256:${createHash('sha256').update(big).digest('hex')}`;
    for (const chunk of [big.length, 300_000]) expect(await digestStream(streamOf(big, chunk))).toBe(want);
  });

  it('hashes the decompressed content, so a gzip file shares its digest with the plain one', async () => {
    const gz = await decompressIfGzip(streamOf(new Uint8Array(gzipSync(TEXT)), 4096));
    expect(gz.gzip).toBe(true);
    expect(await digestStream(gz.stream)).toBe(EXPECTED);
  });

  it('gives the digest of nothing for an empty stream', async () => {
    expect(await digestStream(streamOf(new Uint8Array(), 10))).toBe(`sha256:${createHash('sha256').digest('hex')}`);
  });
});

describe('memoryReviewDb', () => {
  it('keeps reviews per digest and key', async () => {
    const db = memoryReviewDb();
    const r = { rollout_id: 'r-1', attempt_id: null, verdict: 'agree' as const, note: '', reviewer: '', timestamp: '2026-01-01T00:00:00Z' };
    await db.put('d1', [r, { ...r, rollout_id: 'r-2' }]);
    await db.put('d1', [{ ...r, verdict: 'disagree' }]);
    await db.put('d2', [r]);
    expect((await db.list('d1')).map((x) => [x.rollout_id, x.verdict])).toEqual([
      ['r-1', 'disagree'],
      ['r-2', 'agree'],
    ]);
    await db.remove('d1', r);
    expect(await db.list('d1')).toHaveLength(1);
    // Deleted only as stored: a review changed since (another tab) stays.
    const [left] = await db.list('d1');
    if (!left) throw new Error('one review left');
    expect(await db.removeIfUnchanged('d1', [{ ...left, verdict: 'unsure' }])).toBe(0);
    expect(await db.removeIfUnchanged('d1', [left])).toBe(1);
    expect(await db.list('d1')).toEqual([]);
    expect(await db.list('d2')).toHaveLength(1);
  });
});
