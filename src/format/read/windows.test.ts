import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWindows, StreamWindows, windowsDigest } from './windows';

const PROPERTY = { seed: 30, numRuns: 120 };

/** The digest of `bytes`' windows at their end, read as the index reads them: by position. */
function digestAt(bytes: Uint8Array, size: number): string {
  const { head, tail } = checkWindows(bytes.length, size);
  return windowsDigest(bytes.subarray(head.from, head.to), bytes.subarray(tail.from, tail.to));
}

describe('the check windows (grown or rewritten?)', () => {
  it('are the first bytes and the last ones not among them', () => {
    expect(checkWindows(0, 4)).toEqual({ head: { from: 0, to: 0 }, tail: { from: 0, to: 0 } });
    expect(checkWindows(3, 4)).toEqual({ head: { from: 0, to: 3 }, tail: { from: 3, to: 3 } });
    expect(checkWindows(6, 4)).toEqual({ head: { from: 0, to: 4 }, tail: { from: 4, to: 6 } });
    expect(checkWindows(8, 4)).toEqual({ head: { from: 0, to: 4 }, tail: { from: 4, to: 8 } });
    expect(checkWindows(100, 4)).toEqual({ head: { from: 0, to: 4 }, tail: { from: 96, to: 100 } });
  });

  it("digest as the run index has always stored them: SHA-256 of head then tail, 32 hex digits (manifest.json's `check`)", () => {
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 7) % 256);
    const { head, tail } = checkWindows(bytes.length, 64 * 1024);
    const sha = createHash('sha256').update(bytes.subarray(head.from, head.to)).update(bytes.subarray(tail.from, tail.to));
    expect(digestAt(bytes, 64 * 1024)).toBe(sha.digest('hex').slice(0, 32));
    // Through a SHA-256 passed in (node's, as the CLI does): the same digest.
    const native = (parts: readonly Uint8Array[]) => parts.reduce((h, p) => h.update(p), createHash('sha256')).digest();
    expect(windowsDigest(bytes.subarray(head.from, head.to), bytes.subarray(tail.from, tail.to), native)).toBe(digestAt(bytes, 64 * 1024));
  });

  it('kept as a stream passes, digest as read by position, however the stream is cut (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 64 }),
        fc.array(fc.integer({ min: 1, max: 90 }), { minLength: 1, maxLength: 6 }),
        (bytes, size, cuts) => {
          const windows = new StreamWindows(size);
          for (let at = 0, i = 0; at < bytes.length; i++) {
            const n = cuts[i % cuts.length] ?? 1;
            windows.push(bytes.subarray(at, at + n));
            at += n;
          }
          expect(windows.digest()).toEqual({ bytes: bytes.length, hash: digestAt(bytes, size) });
        },
      ),
      PROPERTY,
    );
  });

  it('digest differently when a byte in either window changes, and alike when only a byte between them does (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), fc.nat(), (bytes, pick) => {
        const size = 16;
        const before = digestAt(bytes, size);
        const { head, tail } = checkWindows(bytes.length, size);
        const at = pick % bytes.length;
        const rewritten = bytes.slice();
        rewritten[at] = ((rewritten[at] ?? 0) + 1) % 256;
        // Between the windows is the one rewrite taken for growth (only a full re-read could tell).
        const inWindows = at < head.to || at >= tail.from;
        expect(digestAt(rewritten, size) !== before).toBe(inWindows);
      }),
      PROPERTY,
    );
  });
});
