import { parseRunManifest, type RunManifest } from '../../format';
import { mergePart, RunColumns, type ShardPart } from './runColumns';
import { type Fetch, fetchOk } from './shardBytes';
import { decodeHere, shardUrl } from './shardFetch';

/*
 * A run index read over HTTP from wherever it is (a static host, a bucket, `trajscope view`): the
 * manifest first (a static host cannot list a directory), then each shard: one GET, and, when the
 * manifest gives the shard's size, a range read of its footer so its first rows decode while the rest
 * arrive (shardBytes.ts; a host without ranges reads it whole). Refreshing reads the manifest again and fetches only
 * shards not yet held: a growing run's new shards append; a shard that went away (a file replaced and
 * re-indexed) means the run is read again from the start.
 */

export interface RunSnapshot {
  /** The manifest's URL, absolute. */
  manifestUrl: string;
  manifest: RunManifest;
  columns: RunColumns;
  /** Rows of this snapshot (the columns may hold more once a later snapshot appended to them). */
  rows: number;
  /** Shard paths held, in the order their rows were appended. */
  shards: readonly string[];
  /** Changes whenever the rows do: a cache key. */
  version: number;
}

/** `?run=` names the index directory or its manifest.json. */
export function manifestUrlOf(run: string, base: string = globalThis.location?.href ?? 'http://localhost/'): string {
  if (/\.json(\?.*)?$/i.test(run)) return new URL(run, base).href;
  return new URL(run.endsWith('/') ? 'manifest.json' : `${run.split('/').pop()}/manifest.json`, new URL(run, base)).href;
}

/** The URL of one of the run's files: `file` (as in the index) under the manifest's `source_base`. */
export function sourceUrl(manifestUrl: string, sourceBase: string, file: string): string {
  const base = new URL(sourceBase === '' || sourceBase.endsWith('/') ? sourceBase : `${sourceBase}/`, manifestUrl);
  return new URL(file.split('/').map(encodeURIComponent).join('/'), base).href;
}

async function readManifest(manifestUrl: string, fetch: Fetch): Promise<RunManifest> {
  const text = await (await fetchOk(fetch, manifestUrl)).text();
  const parsed = parseRunManifest(text);
  if ('error' in parsed) throw new Error(`${manifestUrl}: ${parsed.error}`);
  return parsed.manifest;
}

const shardPaths = (m: RunManifest) => m.files.flatMap((f) => f.shards.map((s) => ({ path: s.path, rows: s.rows, bytes: s.bytes })));

/** Rollouts the manifest's shards hold: what a run still being read will show once it is all read. */
export const manifestRows = (m: RunManifest): number => shardPaths(m).reduce((n, s) => n + s.rows, 0);

/** Rows of the shards a snapshot holds whole (a snapshot taken mid-shard has more rows than these). */
function wholeShardRows(s: RunSnapshot): number {
  const rows = new Map(shardPaths(s.manifest).map((w) => [w.path, w.rows]));
  return s.shards.reduce((n, p) => n + (rows.get(p) ?? Number.NaN), 0);
}

let versions = 0;
/** How often a run still being read shows what it has so far (the first time, at once). */
const PROGRESS_MS = 1000;

/**
 * Reads the run (or what changed since `previous`). `onProgress` gets each intermediate snapshot as
 * row groups arrive, so the first chart is drawn from the first shard's first rows, long before a large
 * run is all read.
 */
export async function readRun(
  manifestUrl: string,
  previous: RunSnapshot | null,
  options: {
    fetch?: Fetch;
    onProgress?: (s: RunSnapshot) => void;
    /** The manifest, once read and its first shards asked for (before any of their rows come). */
    onManifest?: (m: RunManifest) => void;
    decode?: ShardDecoder;
  } = {},
): Promise<RunSnapshot> {
  const fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
  const decode =
    options.decode ??
    ((url: string, rows: number, onPart: (p: ShardPart) => void, bytes?: number) => decodeHere(fetch, url, rows, onPart, bytes));
  const manifest = await readManifest(manifestUrl, fetch);
  const wanted = shardPaths(manifest);
  const held = new Set(previous?.shards ?? []);
  // Appending needs the columns to end where the held shards do: a read that failed mid-shard (or
  // after its last snapshot) left rows of shards it does not name, so the run is read again.
  const keeps =
    previous !== null && [...held].every((p) => wanted.some((w) => w.path === p)) && previous.columns.n === wholeShardRows(previous);
  const columns = keeps ? previous.columns : new RunColumns(Math.max(1024, manifestRows(manifest)));
  const shards = keeps ? [...previous.shards] : [];
  const todo = wanted.filter((w) => !keeps || !held.has(w.path));
  if (keeps && todo.length === 0) return { ...previous, manifest };
  const snapshot = (): RunSnapshot => ({ manifestUrl, manifest, columns, rows: columns.n, shards: [...shards], version: ++versions });
  let lastProgress = Number.NEGATIVE_INFINITY;
  // Two shards in flight: one is merged here, row group by row group, while the next one downloads and decodes.
  const start = (k: number) => {
    const s = todo[k];
    return s ? partsOf(decode, shardUrl(manifestUrl, s.path), s.rows, s.bytes) : null;
  };
  let next = start(0);
  options.onManifest?.(manifest);
  for (let i = 0; i < todo.length; i++) {
    const shard = todo[i];
    if (!shard || !next) break;
    const parts = next;
    next = start(i + 1);
    let merged = 0;
    for await (const part of parts) {
      mergePart(columns, part);
      merged += part.rows;
      const last = i === todo.length - 1 && merged >= shard.rows;
      if (options.onProgress && !last && performance.now() - lastProgress > PROGRESS_MS) {
        options.onProgress(snapshot());
        // Decoding is work on this thread: give the page a moment to draw what it has (the first chart).
        await new Promise((r) => setTimeout(r, 50));
        lastProgress = performance.now();
      }
    }
    shards.push(shard.path);
  }
  return snapshot();
}

/**
 * Fetches and decodes one shard (of `bytes` bytes, when the manifest says: then its footer is read by
 * range at once), handing each of its row groups to `onPart` in order as it is decoded; resolves once the
 * last has been handed over.
 */
export type ShardDecoder = (url: string, rows: number, onPart: (part: ShardPart) => void, bytes?: number) => Promise<void>;

/** A shard's parts as they arrive, in order; the decoder's error once the parts before it are taken. */
function partsOf(decode: ShardDecoder, url: string, rows: number, bytes: number | undefined): AsyncIterable<ShardPart> {
  const queue: ShardPart[] = [];
  let wake = () => {};
  let finished = false;
  let failure: { error: unknown } | null = null;
  decode(
    url,
    rows,
    (part) => {
      queue.push(part);
      wake();
    },
    bytes,
  ).then(
    () => {
      finished = true;
      wake();
    },
    (error: unknown) => {
      failure = { error };
      finished = true;
      wake();
    },
  );
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const part = queue.shift();
        if (part) yield part;
        else if (failure) throw (failure as { error: unknown }).error;
        else if (finished) return;
        else await new Promise<void>((r) => (wake = r));
      }
    },
  };
}
