import type { Bytes } from './byteStream';

/** gzip's two magic bytes (RFC 1952 §2.3.1); the file name is not trusted, the content is. */
const GZIP_MAGIC = [0x1f, 0x8b] as const;

function isGzip(head: Uint8Array): boolean {
  return head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
}

/**
 * Reads until the first two bytes are known, then returns a stream of the whole content: decompressed
 * with `DecompressionStream('gzip')` when those bytes are gzip's magic, unchanged otherwise. `onStored`
 * is told the size of every chunk read as stored (compressed for gzip), for progress.
 */
export async function decompressIfGzip(
  input: ReadableStream<Bytes>,
  onStored: (bytes: number) => void = () => {},
): Promise<{ stream: ReadableStream<Bytes>; gzip: boolean }> {
  const reader = input.getReader();
  const head: Bytes[] = [];
  let size = 0;
  let done = false;
  while (size < GZIP_MAGIC.length) {
    const next = await reader.read();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    size += next.value.length;
    onStored(next.value.length);
  }
  const first = new Uint8Array(size);
  let at = 0;
  for (const part of head) {
    first.set(part, at);
    at += part.length;
  }
  const replayed = new ReadableStream<Bytes>({
    start(controller) {
      if (first.length > 0) controller.enqueue(first);
      if (done) controller.close();
    },
    async pull(controller) {
      const next = await reader.read();
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
  if (!isGzip(first)) return { stream: replayed, gzip: false };
  return { stream: replayed.pipeThrough(new DecompressionStream('gzip')), gzip: true };
}
