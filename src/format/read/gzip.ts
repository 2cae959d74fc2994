/** Chunks as File and fetch deliver them: backed by an ArrayBuffer, which DecompressionStream requires. */
export type Bytes = Uint8Array<ArrayBuffer>;

/** gzip's two magic bytes (RFC 1952 §2.3.1); the file name is not trusted, the content is. */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

/**
 * Decompresses a gzip byte stream. `DecompressionStream` by default (the browser's, and node's); the CLI
 * passes zlib's, because node 20's DecompressionStream takes its input as fast as it comes, with no
 * backpressure: a large file's compressed bytes would pile up in memory ahead of a slower parser.
 */
export type Gunzip = (compressed: ReadableStream<Bytes>) => ReadableStream<Bytes>;

const webGunzip: Gunzip = (compressed) => compressed.pipeThrough(new DecompressionStream('gzip'));

/** A byte source's content: decompressed when its bytes were gzip's. */
export interface Content {
  stream: ReadableStream<Bytes>;
  gzip: boolean;
  /**
   * Whether the stored bytes themselves failed to arrive (a file or network error), as opposed to
   * arriving and not being gzip: only the second is recovered from (readContent.ts).
   */
  sourceFailed: () => boolean;
  /** Stops reading before the end: cancels the source too (in Node 20 a DecompressionStream's cancel does not reach it). */
  cancel: () => void;
}

/**
 * Reads until the first two bytes are known, then returns a stream of the whole content: decompressed
 * (by `gunzip`) when those bytes are gzip's magic, unchanged otherwise. `onStored` is told the size of
 * every chunk read as stored (compressed for gzip), for progress. `plain`: the bytes are known to be
 * lines (a later part of a plain file, where a line may begin with the magic), so they are not sniffed.
 */
export async function decompressIfGzip(
  input: ReadableStream<Bytes>,
  onStored: (bytes: number) => void = () => {},
  { plain = false, gunzip = webGunzip }: { plain?: boolean; gunzip?: Gunzip } = {},
): Promise<Content> {
  const reader = input.getReader();
  let failed = false;
  const read = async () => {
    try {
      return await reader.read();
    } catch (e) {
      failed = true;
      throw e;
    }
  };
  const head: Bytes[] = [];
  let size = 0;
  let done = false;
  while (!plain && size < GZIP_MAGIC.length) {
    const next = await read();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    size += next.value.length;
    onStored(next.value.length);
  }
  const replayed = new ReadableStream<Bytes>({
    start(controller) {
      for (const part of head) controller.enqueue(part);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await read();
      if (next.done) controller.close();
      else {
        onStored(next.value.length);
        controller.enqueue(next.value);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const sourceFailed = () => failed;
  const stream = plain || !isGzip(head) ? replayed : gunzip(replayed);
  const cancel = () => {
    if (!stream.locked) stream.cancel().catch(() => {});
    reader.cancel().catch(() => {});
  };
  return { stream, gzip: stream !== replayed, sourceFailed, cancel };
}

/** Whether the first chunks begin with gzip's magic (a chunk may hold a single byte). */
function isGzip(head: readonly Bytes[]): boolean {
  const first = head.flatMap((part) => [...part.subarray(0, GZIP_MAGIC.length)]);
  return first[0] === GZIP_MAGIC[0] && first[1] === GZIP_MAGIC[1];
}
