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
