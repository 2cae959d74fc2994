import type { Writable } from 'node:stream';

/** Text is handed to the stream in pieces about this big, waiting for it to drain between them. */
const PIECE_CHARS = 1 << 16;

/**
 * Writes an object as `JSON.stringify(value, null, 2)` would, byte for byte, but streamed: each element
 * of a top-level array field is stringified on its own, so no string ever holds the whole report (four
 * million parse errors made one past V8's longest string). Waits for the stream to drain as it goes.
 */
export async function writeJsonStreamed(out: Writable, value: Record<string, unknown>): Promise<void> {
  let piece = '';
  const put = async (s: string) => {
    piece += s;
    if (piece.length < PIECE_CHARS) return;
    await flush();
  };
  const flush = async () => {
    const text = piece;
    piece = '';
    if (text !== '' && !out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
  };
  const entries = Object.entries(value).filter(([, v]) => v !== undefined && typeof v !== 'function');
  if (entries.length === 0) {
    out.write('{}\n');
    return;
  }
  await put('{\n');
  for (const [i, [key, v]] of entries.entries()) {
    await put(`  ${JSON.stringify(key)}: `);
    if (Array.isArray(v) && v.length > 0) {
      await put('[\n');
      for (let j = 0; j < v.length; j++) {
        const element = JSON.stringify(v[j] === undefined ? null : v[j], null, 2) ?? 'null';
        await put(`    ${element.replaceAll('\n', '\n    ')}${j < v.length - 1 ? ',' : ''}\n`);
      }
      await put('  ]');
    } else {
      await put((JSON.stringify(v, null, 2) ?? 'null').replaceAll('\n', '\n  '));
    }
    await put(i < entries.length - 1 ? ',\n' : '\n');
  }
  await put('}\n');
  await flush();
}
