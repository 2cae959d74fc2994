import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import {
  type Bytes,
  chunksOf,
  createLineParser,
  decompressIfGzip,
  type FormatId,
  type Gunzip,
  type LineResult,
  type ReadOptions,
  readContent,
} from '../format';
import { walk } from './runIndex/inputs';
import { readDirectory } from './traceDirectory';

/** verifiers writes `metadata.json` beside `results.jsonl`; anything larger than this is not that file. */
const METADATA_LIMIT = 16 * 1024 * 1024;

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

export interface ReadSummary {
  lines: number;
  /** The format the file was read as (null when it held no JSON object). */
  format: FormatId | null;
  /** Whether a `metadata.json` beside the file was found and passed to the adapter. */
  metadata: boolean;
  /** The file is of no format Trajscope reads: what it looks like, in one line (lint exits 2). */
  unsupported: string | null;
  /** The bytes were gzip (told by their magic bytes). */
  gzip: boolean;
}

/** Where and how `readJsonlFile` reads, beyond the format: what `trajscope index` needs of the same reader. */
export interface ReadAt {
  /** The file's name in results (default: the path). */
  name?: string;
  /** Start at this byte of a plain file (a grown file is read on from its last indexed line). */
  start?: number;
  /** Stop before this byte of a plain file (a line's start: a part of a file split between index jobs). */
  end?: number;
  /** The bytes from `start` are a later part of a v1 file (LineParserOptions.continuesV1). */
  continuesV1?: boolean;
  /** Sees every uncompressed byte, in order, just before the parser does (to find each line's offset). */
  onBytes?: (chunk: Uint8Array) => void;
  /** Sees the format so far (null until known) whenever asked: a caller may need it before the end. */
  format?: { current: () => string | null };
}

/**
 * `-` reads standard input, and so does `/dev/stdin`, from the process's own stream: a pipe cannot seek,
 * and a socket (as a parent process's pipe may be) cannot be opened by that name at all (ENXIO).
 */
const STDIN_NAMES = new Set(['-', '/dev/stdin']);

/**
 * Streams a trajectory file in any supported format (docs/formats.md), plain or gzip (told by its magic
 * bytes, not its name, and read from the stream: a pipe cannot seek), through `createLineParser`,
 * calling `onLine` for each result. The bytes go through the one byte reader (src/format/read), as the
 * page's do. Memory is one chunk plus the current line, bounded by `maxLineBytes` (a multi-line JSON
 * document, such as a `.traj`, is read whole up to its own limit). A gzip stream that fails part-way
 * (garbage after the last member, a cut or corrupt file) keeps every line that decompressed before the
 * failure and reports one error for the rest (readContent). Rejects only when the file cannot be read at all.
 */
export async function readJsonlFile(
  path: string,
  onLine: (r: LineResult) => void,
  options: ReadOptions = {},
  at: ReadAt = {},
): Promise<ReadSummary> {
  const stdin = STDIN_NAMES.has(path);
  const name = at.name ?? (path === '-' ? '<stdin>' : path);
  const metadata = stdin ? undefined : await readSiblingMetadata(path);
  const input = stdin
    ? process.stdin
    : createReadStream(path, {
        highWaterMark: 1 << 20,
        start: at.start ?? 0,
        // The stream's end is inclusive (a part is never empty).
        ...(at.end === undefined ? {} : { end: at.end - 1 }),
      });
  const parser = createLineParser(name, {
    from: options.from ?? 'auto',
    metadata,
    ...(options.maxLineBytes === undefined ? {} : { maxLineBytes: options.maxLineBytes }),
    ...(options.mapping ? { mapping: options.mapping } : {}),
    ...(at.continuesV1 ? { continuesV1: true } : {}),
  });
  if (at.format) at.format.current = () => parser.format;
  // Read from a later byte (a grown file read on, a part of a split one), the bytes are a plain file's
  // lines: a line that happens to begin with gzip's magic is a bad line, not a compressed stream.
  const content = await decompressIfGzip(webBytes(input), undefined, {
    plain: (at.start ?? 0) > 0,
    // Where the bytes cannot be read again, what a failure drops is a chunk's worth: the default's.
    gunzip: zlibGunzip(stdin ? undefined : ZLIB_CHUNK_BYTES),
  });
  const damage = await readContent(
    content,
    (chunk) => {
      at.onBytes?.(chunk);
      for (const r of parser.push(chunk)) onLine(r);
    },
    // Standard input cannot be read again: its lines up to the failure stand, minus the last write's.
    stdin ? {} : { reopen: async () => webBytes(createReadStream(path, { highWaterMark: 1 << 20 })) },
  );
  for (const r of parser.end()) onLine(r);
  if (damage !== null) onLine({ kind: 'error', value: { file: name, line: parser.lines + 1, code: 'E_PARSE', message: damage } });
  return {
    lines: parser.lines,
    format: parser.format,
    metadata: metadata !== undefined,
    unsupported: parser.unsupported,
    gzip: content.gzip,
  };
}

/**
 * Reads a path named on the command line: a directory as the traces its files together hold (an OpenHands
 * conversation, a Harbor job, a tau2-bench results directory: `readDirectory`, docs/formats.md "Directories
 * as traces"), its results named by the path as given and each trace's file within it, so two directories
 * of one layout never share a name; anything else as one trajectory file (`readJsonlFile`). A directory of
 * no known layout is `unsupported`, with one line saying what it holds. `name` names a trace directory's
 * results in place of the path (`index` and `view` name a copy's rollouts as they name files: not by where
 * this machine keeps them).
 */
export async function readPath(
  path: string,
  onLine: (r: LineResult) => void,
  options: ReadOptions = {},
  name?: string,
): Promise<ReadSummary> {
  if (STDIN_NAMES.has(path) || !(await stat(path).catch(() => null))?.isDirectory()) return readJsonlFile(path, onLine, options);
  const traces = await readDirectory(path, onLine, options, name ?? path);
  if (traces.unsupported === null || traces.format !== null) return traces;
  // No trace layout, but trajectory files: a run directory, read file by file as `index` lists it.
  const files = await walk(resolve(path));
  return files.length === 0 ? traces : readFiles(path, files, onLine, options);
}

/** A run directory's files read in name order, each named by its path as typed; one summary for them all. */
async function readFiles(
  dir: string,
  files: readonly string[],
  onLine: (r: LineResult) => void,
  options: ReadOptions,
): Promise<ReadSummary> {
  let lines = 0;
  let format: ReadSummary['format'] = null;
  const unread: string[] = [];
  for (const file of files) {
    const name = join(dir, relative(resolve(dir), file));
    const summary = await readJsonlFile(file, onLine, options, { name });
    lines += summary.lines;
    format ??= summary.format;
    if (summary.unsupported !== null) unread.push(`${name}: ${summary.unsupported}`);
  }
  return { lines, format, metadata: false, unsupported: unread.length > 0 ? unread.join('; ') : null, gzip: false };
}

/**
 * A byte stream's content, gunzipped when its first bytes are gzip's: what the view server's search scans.
 * A gzip stream that breaks ends the content there (a load recovers the tail; a search reports what it read).
 */
export async function* contentChunks(input: AsyncIterable<unknown>): AsyncGenerator<Uint8Array> {
  yield* chunksOf((await decompressIfGzip(webBytes(input), undefined, { gunzip: zlibGunzip() })).stream);
}

/**
 * A node byte source (a file's read stream, standard input) as the Web stream the byte reader takes,
 * read a chunk at a time as the reader asks, so a slow parser holds the file back instead of filling memory.
 */
function webBytes(input: AsyncIterable<unknown>): ReadableStream<Bytes> {
  const chunks = input[Symbol.asyncIterator]();
  return new ReadableStream<Bytes>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(bytesOf(next.value));
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}

/**
 * zlib's output chunk for a file: 8 times its default, so the Web stream layers between it and the
 * parser cost one hop per 128 KiB (measured: 16 KiB chunks made `lint` of a 512 MB gzip file some 9%
 * slower than before). A native decoder drops the chunk it fails in, which for a file is read again.
 */
const ZLIB_CHUNK_BYTES = 128 * 1024;

/** zlib's gunzip in place of node 20's DecompressionStream, which has no backpressure (format/read/gzip.ts). */
function zlibGunzip(chunkSize?: number): Gunzip {
  return (compressed) => {
    const gunzip = createGunzip(chunkSize === undefined ? {} : { chunkSize });
    const input = Readable.fromWeb(compressed);
    // A pipe does not pass its source's error on: the stored bytes failing must fail the content.
    input.on('error', (e) => gunzip.destroy(e));
    return webBytes(input.pipe(gunzip));
  };
}

/** A node chunk as bytes in an ArrayBuffer (DecompressionStream refuses a view of a SharedArrayBuffer). */
function bytesOf(chunk: unknown): Bytes {
  if (!(chunk instanceof Uint8Array)) throw new Error('unexpected non-binary chunk');
  const { buffer } = chunk;
  return buffer instanceof ArrayBuffer ? new Uint8Array(buffer, chunk.byteOffset, chunk.byteLength) : new Uint8Array(chunk);
}
