import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createGunzip } from 'node:zlib';
import { createLineParser, type FormatId, type LineResult } from '../format';

const GZIP_MAGIC = [0x1f, 0x8b];

/** verifiers writes `metadata.json` beside `results.jsonl`; anything larger than this is not that file. */
const METADATA_LIMIT = 16 * 1024 * 1024;

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
 * The `metadata.json` beside a file, parsed, or undefined when there is none (or it is not JSON).
 * Only the verifiers results adapter uses it (model, sampling, env version); other formats ignore it.
 */
async function readSiblingMetadata(path: string): Promise<unknown> {
  const file = join(dirname(path), 'metadata.json');
  try {
    const s = await stat(file);
    if (!s.isFile() || s.size > METADATA_LIMIT) return undefined;
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export interface ReadOptions {
  /** The source format; `auto` (the default) detects it from the first JSON object. */
  from?: FormatId | 'auto';
}

export interface ReadSummary {
  lines: number;
  /** The format the file was read as (null when it held no JSON object). */
  format: FormatId | null;
  /** Whether a `metadata.json` beside the file was found and passed to the adapter. */
  metadata: boolean;
}

/**
 * Streams a trajectory file in any supported format (docs/formats.md), plain or gzip (told by its magic
 * bytes, not its name), through `createLineParser`, calling `onLine` for each result. Memory is one
 * chunk plus the current line (a multi-line JSON document, such as a `.traj`, is read whole).
 * Rejects when the file cannot be read or its gzip stream is corrupt; lines already delivered stand.
 */
export async function readJsonlFile(path: string, onLine: (r: LineResult) => void, options: ReadOptions = {}): Promise<ReadSummary> {
  const gz = await isGzip(path);
  const metadata = await readSiblingMetadata(path);
  const raw = createReadStream(path, { highWaterMark: 1 << 20 });
  const stream = gz ? raw.pipe(createGunzip()) : raw;
  if (gz) raw.on('error', (e) => stream.destroy(e));
  const parser = createLineParser(path, { from: options.from ?? 'auto', metadata });
  for await (const chunk of stream) {
    if (!(chunk instanceof Uint8Array)) throw new Error('unexpected non-binary chunk');
    for (const r of parser.push(chunk)) onLine(r);
  }
  for (const r of parser.end()) onLine(r);
  return { lines: parser.lines, format: parser.format, metadata: metadata !== undefined };
}
