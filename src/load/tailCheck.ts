/**
 * How many of the first and of the last bytes read a follower checks before it appends (docs/adr/0010):
 * a range read starts this far back, and those bytes, and the file's first ones, must hash as what was
 * read, or the file was rewritten (truncated and written past its old size, or rewritten in place) and
 * is loaded again. Costs 2 KiB and one more small request per append. A rewrite that keeps both windows
 * byte for byte (and the size or more) is not noticed: only a full re-read could tell.
 */
export const TAIL_CHECK_BYTES = 1024;

/** The first or last bytes read of a file, as a hash: what a follower compares a fresh range read with. */
export interface TailDigest {
  bytes: number;
  hash: string;
}

/** A 53-bit hash (cyrb53) as hex: not cryptographic, only to tell changed bytes from unchanged ones. */
export function hashBytes(bytes: Uint8Array): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    h1 = Math.imul(h1 ^ b, 2654435761);
    h2 = Math.imul(h2 ^ b, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}

/** The last TAIL_CHECK_BYTES of what was held plus a new chunk (a copy: chunks may be reused). */
export function nextTail(held: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (chunk.length >= TAIL_CHECK_BYTES) return chunk.slice(chunk.length - TAIL_CHECK_BYTES);
  const keep = Math.min(held.length, TAIL_CHECK_BYTES - chunk.length);
  const out = new Uint8Array(keep + chunk.length);
  out.set(held.subarray(held.length - keep));
  out.set(chunk, keep);
  return out;
}
