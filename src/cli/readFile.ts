import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { JsonlParser, type LineResult } from '../format';

const GZIP_MAGIC = [0x1f, 0x8b];

async function isGzip(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await fh.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === GZIP_MAGIC[0] && buffer[1] === GZIP_MAGIC[1];
  } finally {
    await fh.close();
  }
}

/**
 * Streams a `.jsonl` or `.jsonl.gz` file (gzip told by its magic bytes, not its name) through the
 * parser, calling `onLine` for each result. Memory is one chunk plus the current line.
 * Rejects when the file cannot be read or its gzip stream is corrupt; lines already delivered stand.
 */
export async function readJsonlFile(path: string, onLine: (r: LineResult) => void): Promise<{ lines: number }> {
  const gz = await isGzip(path);
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const stream = gz ? raw.pipe(createGunzip()) : raw;
  if (gz) raw.on('error', (e) => stream.destroy(e));
  const parser = new JsonlParser(path);
  for await (const chunk of stream) {
    if (!(chunk instanceof Uint8Array)) throw new Error('unexpected non-binary chunk');
    for (const r of parser.push(chunk)) onLine(r);
  }
  for (const r of parser.end()) onLine(r);
  return { lines: parser.lines };
}
