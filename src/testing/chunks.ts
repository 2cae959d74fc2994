import type { LineResult } from '../format';

/** Anything that takes bytes chunk by chunk: JsonlParser, createLineParser's parsers. */
interface ChunkParser {
  lines: number;
  push(chunk: Uint8Array): LineResult[];
  end(): LineResult[];
}

/**
 * Feeds `bytes` to a parser in chunks of the given sizes (the rest in one last chunk), then ends it: how
 * the tests cut lines, characters and gzip headers at arbitrary places.
 */
export function feedInChunks(
  parser: ChunkParser,
  bytes: Uint8Array,
  sizes: readonly number[] = [],
): { results: LineResult[]; lines: number } {
  const results: LineResult[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= bytes.length) break;
    results.push(...parser.push(bytes.subarray(at, at + size)));
    at += size;
  }
  if (at < bytes.length) results.push(...parser.push(bytes.subarray(at)));
  results.push(...parser.end());
  return { results, lines: parser.lines };
}

/**
 * A File whose stream() yields fresh copies of the bytes in chunks of the given sizes, cycling through
 * them (one number: all chunks that size), as a stream reader hands its chunks over: how the loader
 * tests cut lines, characters and gzip headers anywhere.
 */
export function chunkedFile(bytes: Uint8Array<ArrayBuffer>, name: string, sizes: number | readonly number[]): File {
  const cycle = typeof sizes === 'number' ? [sizes] : sizes;
  const file = new File([bytes], name);
  Object.defineProperty(file, 'stream', {
    value: () => {
      let at = 0;
      let i = 0;
      return new ReadableStream<Uint8Array<ArrayBuffer>>({
        pull(controller) {
          if (at >= bytes.length) return controller.close();
          const size = cycle[i++ % cycle.length] ?? bytes.length;
          controller.enqueue(bytes.slice(at, at + size));
          at += size;
        },
      });
    },
  });
  return file;
}
