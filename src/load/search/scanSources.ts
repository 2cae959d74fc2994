import { contentClauses, parseQuery, RecordScanner, type SearchMatch } from '../../analysis';
import { decompressIfGzip, type FieldMapping } from '../../format';
import { openByteStream } from '../byteStream';
import type { LoadSource } from '../sources';

export interface SearchProgress {
  /** Bytes read as stored, over all sources; total null while a size is unknown. */
  bytes: number;
  total: number | null;
  records: number;
}

export interface ScanCallbacks {
  /** New matches, in file and line order, batched (a message per match would swamp the page). */
  onMatches: (matches: SearchMatch[]) => void;
  onProgress: (progress: SearchProgress) => void;
}

/** How often matches and progress go out while scanning. */
const BATCH_MS = 100;

/**
 * Scans sources for a query's content clauses with RecordScanner, reading them as a load does (a File or
 * a URL, gzip by its magic bytes). No DOM: the search worker calls it, and node tests call it directly.
 * Resolves with the number of records read; rejects with the abort reason when `signal` fires.
 */
export async function scanSources(
  sources: readonly LoadSource[],
  query: string,
  options: { mapping?: FieldMapping; signal?: AbortSignal },
  callbacks: ScanCallbacks,
): Promise<number> {
  const clauses = contentClauses(parseQuery(query));
  const opened = [];
  for (const source of sources) opened.push({ source, ...(await openByteStream(source, options.signal)) });
  const total = opened.every((o) => o.total !== null) ? opened.reduce((n, o) => n + (o.total ?? 0), 0) : null;
  let bytes = 0;
  let records = 0;
  let batch: SearchMatch[] = [];
  let last = Date.now();
  const flush = (scanned: number) => {
    if (batch.length > 0) callbacks.onMatches(batch);
    batch = [];
    callbacks.onProgress({ bytes, total, records: records + scanned });
    last = Date.now();
  };
  for (const { source, stream } of opened) {
    const scanner = new RecordScanner(source.name, clauses, options.mapping ? { mapping: options.mapping } : {}, (m) => batch.push(m));
    const content = await decompressIfGzip(stream, (n) => {
      bytes += n;
    });
    const reader = content.stream.getReader();
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        options.signal?.throwIfAborted();
        scanner.push(next.value);
        if (Date.now() - last > BATCH_MS) flush(scanner.records);
      }
    } finally {
      reader.releaseLock();
      stream.cancel().catch(() => {});
    }
    scanner.end();
    records += scanner.records;
    flush(0);
  }
  return records;
}
