import type { IdDecoder } from './tokens';

// A byte-level BPE vocabulary, reduced to what decoding needs: each id's bytes, and which ids are added
// tokens (decoded as their own text, never merged with the bytes around them). The browser fetches this
// table instead of the tokenizer package: decoding needs no merges, and the package is a 5 MB script whose
// parse and set-up took over a second of the page's one thread (issue 25).
//
// Layout, little-endian: "TST1", u32 vocabulary size N, u32 added count A, A × u32 added ids, N × u16 byte
// lengths, then every id's bytes in id order.

const MAGIC = 0x31545354; // "TST1"
const HEADER = 12;

/** What a table is built from: how many ids, each id's bytes, and the added tokens' ids. */
export interface TokenTableSource {
  size: number;
  bytesOf(id: number): Uint8Array;
  added: readonly number[];
}

/** Writes the table (run at build time from the real tokenizer). */
export function writeTokenTable(src: TokenTableSource): Uint8Array {
  const pieces: Uint8Array[] = [];
  let total = 0;
  for (let id = 0; id < src.size; id++) {
    const b = src.bytesOf(id);
    if (b.length > 0xffff) throw new Error(`token ${id} is ${b.length} bytes, over the table's 65,535`);
    pieces.push(b);
    total += b.length;
  }
  const head = HEADER + 4 * src.added.length + 2 * src.size;
  const out = new Uint8Array(head + total);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, src.size, true);
  view.setUint32(8, src.added.length, true);
  src.added.forEach((id, i) => {
    view.setUint32(HEADER + 4 * i, id, true);
  });
  const lengths = HEADER + 4 * src.added.length;
  let at = head;
  pieces.forEach((b, id) => {
    view.setUint16(lengths + 2 * id, b.length, true);
    out.set(b, at);
    at += b.length;
  });
  return out;
}

/**
 * Reads a table into a decoder that gives the same text as the tokenizer's own `decode` with special
 * tokens kept and no clean-up: runs of ordinary ids are decoded as UTF-8 together (a character split over
 * tokens comes out whole; a broken one as U+FFFD), added tokens as their text, and an unknown id as nothing.
 */
export function readTokenTable(buffer: ArrayBuffer): IdDecoder {
  const view = new DataView(buffer);
  if (buffer.byteLength < HEADER || view.getUint32(0, true) !== MAGIC) throw new Error('not a Trajscope token table (no TST1 header)');
  const size = view.getUint32(4, true);
  const addedCount = view.getUint32(8, true);
  const added = new Set<number>();
  for (let i = 0; i < addedCount; i++) added.add(view.getUint32(HEADER + 4 * i, true));
  const lengths = HEADER + 4 * addedCount;
  const starts = new Uint32Array(size + 1);
  let at = lengths + 2 * size;
  for (let id = 0; id < size; id++) {
    starts[id] = at;
    at += view.getUint16(lengths + 2 * id, true);
  }
  starts[size] = at;
  if (at !== buffer.byteLength) throw new Error(`token table is ${buffer.byteLength} bytes, its lengths say ${at}`);
  const bytes = new Uint8Array(buffer);
  // The package keeps a byte-order mark that a token decodes to; TextDecoder would drop one at the start.
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

  const decodeRun = (run: number[]): string => {
    let n = 0;
    for (const id of run) n += (starts[id + 1] ?? 0) - (starts[id] ?? 0);
    const buf = new Uint8Array(n);
    let o = 0;
    for (const id of run) {
      const piece = bytes.subarray(starts[id], starts[id + 1]);
      buf.set(piece, o);
      o += piece.length;
    }
    return utf8.decode(buf);
  };

  return {
    decode(ids) {
      let out = '';
      let run: number[] = [];
      for (const id of ids) {
        if (!Number.isInteger(id) || id < 0 || id >= size) continue;
        if (added.has(id)) {
          // Decoded on its own, as the tokenizer does: a broken character before it ends there.
          if (run.length > 0) out += decodeRun(run);
          run = [];
          out += decodeRun([id]);
        } else run.push(id);
      }
      if (run.length > 0) out += decodeRun(run);
      return out;
    },
  };
}
