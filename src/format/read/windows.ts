import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** A stretch of bytes, `from` inclusive, `to` exclusive. */
export interface ByteRange {
  from: number;
  to: number;
}

/**
 * Where the "grown or rewritten?" check looks in a file read up to byte `end`: its first `size` bytes,
 * and the `size` bytes before `end` that are not among them. Appending leaves both windows as they were;
 * truncating and writing again, or rewriting in place, changes them unless it keeps both byte for byte
 * (the one rewrite taken for growth: only a full re-read could tell). The follower (src/load/follow.ts)
 * and the run index's resume (src/cli/runIndex/scanFile.ts) both look here, each with its own `size`.
 */
export function checkWindows(end: number, size: number): { head: ByteRange; tail: ByteRange } {
  const head = Math.min(size, end);
  return { head: { from: 0, to: head }, tail: { from: Math.max(head, end - size), to: end } };
}

/** SHA-256 of the parts, in order, as if joined. */
export type Sha256 = (parts: readonly Uint8Array[]) => Uint8Array;

const jsSha256: Sha256 = (parts) => {
  const hash = sha256.create();
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/**
 * The digest of the two windows' bytes that both checks store and compare: SHA-256, its first 128 bits
 * as hex. Not for security, only to tell changed bytes from unchanged ones; SHA-256 because run indexes
 * already store it this way (`check` in manifest.json). The CLI passes node's own SHA-256: the same
 * digest, some 9 times faster than this JavaScript one (0.08 against 0.7 ms for two 64 KiB windows),
 * which counts where a run has many small files.
 */
export function windowsDigest(head: Uint8Array, tail: Uint8Array, hash: Sha256 = jsSha256): string {
  return bytesToHex(hash([head, tail])).slice(0, 32);
}

/** The check windows of content read from its start, as a digest, and the end it was taken at. */
export interface WindowsDigest {
  bytes: number;
  hash: string;
}

/**
 * Keeps a stream's check windows as it passes (its first `size` bytes, and its last), so the digest at
 * its current end needs no second read: a page cannot read a fetched file again cheaply.
 */
export class StreamWindows {
  private first: Uint8Array = new Uint8Array(0);
  private last: Uint8Array = new Uint8Array(0);
  private end = 0;

  constructor(readonly size: number) {}

  push(chunk: Uint8Array): void {
    if (this.first.length < this.size) this.first = joined(this.first, chunk.subarray(0, this.size - this.first.length));
    // A copy: the chunk's buffer may be reused or given away.
    this.last =
      chunk.length >= this.size
        ? chunk.slice(chunk.length - this.size)
        : joined(this.last.subarray(Math.max(0, this.last.length - (this.size - chunk.length))), chunk);
    this.end += chunk.length;
  }

  digest(): WindowsDigest {
    const { head, tail } = checkWindows(this.end, this.size);
    return {
      bytes: this.end,
      hash: windowsDigest(this.first.subarray(0, head.to), this.last.subarray(this.last.length - (tail.to - tail.from))),
    };
  }
}

function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
