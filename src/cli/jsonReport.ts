import type { Writable } from 'node:stream';

/** Text is handed to the stream in pieces about this big, waiting for it to drain between them. */
const PIECE_CHARS = 1 << 16;

/**
 * A top-level array whose elements are not in memory (`lint --json`'s spooled lines and rollouts): its
 * length, and the text between `[\n` and `\n  ]` as `arrayElement` spells each element, `,\n` between them.
 */
export interface StreamedArray {
  readonly streamed: true;
  readonly length: number;
  body(): AsyncIterable<string | Uint8Array>;
}

/** One element of a top-level array, as `JSON.stringify(report, null, 2)` writes it (four spaces in). */
export function arrayElement(value: unknown): string {
  const text = JSON.stringify(value === undefined ? null : value, null, 2) ?? 'null';
  return `    ${text.replaceAll('\n', '\n    ')}`;
}

const isStreamed = (v: unknown): v is StreamedArray =>
  typeof v === 'object' && v !== null && (v as { streamed?: unknown }).streamed === true;

/**
 * Writes an object as `JSON.stringify(value, null, 2)` would, byte for byte, but streamed: each element
 * of a top-level array field is stringified on its own, so no string ever holds the whole report (four
 * million parse errors made one past V8's longest string), and a `StreamedArray` field is copied from
 * where it is kept. Waits for the stream to drain as it goes.
 */
export async function writeJsonStreamed(out: Writable, value: Record<string, unknown>): Promise<void> {
  let piece = '';
  const send = async (chunk: string | Uint8Array) => {
    if (chunk.length > 0 && !out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  const flush = async () => {
    const text = piece;
    piece = '';
    await send(text);
  };
  const put = async (s: string) => {
    piece += s;
    if (piece.length >= PIECE_CHARS) await flush();
  };
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
  if (entries.length === 0) {
    out.write('{}\n');
    return;
  }
  await put('{\n');
  for (const [i, [key, v]] of entries.entries()) {
    await put(`  ${JSON.stringify(key)}: `);
    if (isStreamed(v) && v.length > 0) {
      await put('[\n');
      await flush();
      for await (const chunk of v.body()) await send(chunk);
      await put('\n  ]');
    } else if (isStreamed(v)) {
      await put('[]');
    } else if (Array.isArray(v) && v.length > 0) {
      await put('[\n');
      for (let j = 0; j < v.length; j++) await put(`${arrayElement(v[j])}${j < v.length - 1 ? ',' : ''}\n`);
      await put('  ]');
    } else {
      await put((JSON.stringify(v, null, 2) ?? 'null').replaceAll('\n', '\n  '));
    }
    await put(i < entries.length - 1 ? ',\n' : '\n');
  }
  await put('}\n');
  await flush();
}
