/*
 * A run index's files over HTTP: the manifest and shards fetched (fetchOk), and a shard's bytes read as
 * they arrive, so its first row group decodes before the rest has downloaded. Parquet keeps its footer
 * (where each row group's bytes are) at the end of the file, so when the manifest gives the shard's size
 * its last bytes are asked for by range at once, before the file itself. The run page's first chart
 * waited for the whole first shard (2.3 MB, 150-300 ms on a machine busy starting the page) before
 * decoding its first 2,000 rows (issue 25). A host that answers no ranges, a size that is not the file's,
 * or a body of unknown length: the footer comes with the whole file, as before.
 */

export type Fetch = typeof globalThis.fetch;

/** `trajscope view` answers 503 until its first index of the run is written: wait, it is not missing. */
export class IndexPending extends Error {}

export async function fetchOk(fetch: Fetch, url: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { cache: 'no-store' });
  } catch (e) {
    throw new Error(`could not read ${url}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (res.status === 503) throw new IndexPending(`${url}: the run index is being built`);
  if (!res.ok) throw new Error(`could not read ${url}: HTTP ${res.status}`);
  return res;
}

/** The file's last bytes asked for: a run index shard's footer is about 30 KB. */
export const TAIL_BYTES = 64 * 1024;

/** What hyparquet reads (its AsyncBuffer): a slice waits for its bytes to arrive. */
interface ShardFile {
  byteLength: number;
  slice(start: number, end?: number): ArrayBuffer | Promise<ArrayBuffer>;
}

export interface ArrivingShard {
  file: ShardFile;
  /** The file's last TAIL_BYTES (its footer), or null when the range read failed or was not made. */
  tail: Promise<ArrayBuffer | null>;
  /** Resolves with the whole file once every byte has arrived. */
  whole: Promise<ArrayBuffer>;
}

const readError = (url: string, e: unknown) => new Error(`could not read ${url}: ${e instanceof Error ? e.message : String(e)}`);

/**
 * The shard at `url`, `size` bytes long when the manifest says: its tail asked for first, then the file,
 * whose body is read as it streams in.
 */
export async function openShard(fetch: Fetch, url: string, size?: number): Promise<ArrivingShard> {
  const tail = size !== undefined && size > 2 * TAIL_BYTES ? readTail(fetch, url, size) : Promise.resolve(null);
  const res = await fetchOk(fetch, url);
  const total = knownLength(res);
  if (total === null || total !== size || !res.body) {
    const whole = res.arrayBuffer().catch((e: unknown) => Promise.reject(readError(url, e)));
    return { file: await whole, tail: Promise.resolve(null), whole };
  }
  const etag = res.headers.get('etag');
  const body = arriving(res.body, total, url);
  // The tail of this very file: the same ETag when both have one (not a file replaced between the reads).
  const same = tail.then((t) => (t && (etag === null || t.etag === null || t.etag === etag) ? t.bytes : null));
  return { file: body.file, tail: same, whole: body.whole };
}

/** The body's length when its bytes are the file's (no content encoding between). */
function knownLength(res: Response): number | null {
  const encoding = res.headers.get('content-encoding');
  if (encoding && encoding !== 'identity') return null;
  const length = Number(res.headers.get('content-length') ?? Number.NaN);
  return Number.isSafeInteger(length) && length > 0 ? length : null;
}

/**
 * The last TAIL_BYTES of a file of `size` bytes, or null. An explicit range (a static host, sirv, reads
 * a suffix range `bytes=-N` as the first N bytes), kept only if the answer is exactly that range of a
 * file of that size.
 */
async function readTail(fetch: Fetch, url: string, size: number): Promise<{ bytes: ArrayBuffer; etag: string | null } | null> {
  const start = size - TAIL_BYTES;
  try {
    const res = await fetch(url, { headers: { Range: `bytes=${start}-${size - 1}` }, cache: 'no-store' });
    if (res.status !== 206 || res.headers.get('content-range') !== `bytes ${start}-${size - 1}/${size}`) {
      // A host answering the whole file for a range: not read twice.
      void res.body?.cancel();
      return null;
    }
    const bytes = await res.arrayBuffer();
    return bytes.byteLength === TAIL_BYTES ? { bytes, etag: res.headers.get('etag') } : null;
  } catch {
    // The tail only saves time: without it the footer comes with the whole file.
    return null;
  }
}

/** The body read into one buffer of `total` bytes as its chunks come; a slice resolves once its bytes are there. */
function arriving(body: ReadableStream<Uint8Array>, total: number, url: string): { file: ShardFile; whole: Promise<ArrayBuffer> } {
  let buffer: ArrayBuffer;
  try {
    buffer = new ArrayBuffer(total);
  } catch (e) {
    // A length no buffer can hold (a planted manifest's size, a host's Content-Length): named, not a bare RangeError.
    void body.cancel();
    throw readError(url, e);
  }
  const view = new Uint8Array(buffer);
  let received = 0;
  let failure: Error | null = null;
  const waiting = new Set<{ end: number; resolve: () => void; reject: (e: Error) => void }>();
  const wake = () => {
    for (const w of waiting) {
      if (failure) w.reject(failure);
      else if (w.end <= received) w.resolve();
      else continue;
      waiting.delete(w);
    }
  };
  const whole = (async () => {
    const reader = body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received + value.byteLength > total) throw new Error(`more bytes than its Content-Length of ${total}`);
      view.set(value, received);
      received += value.byteLength;
      wake();
    }
    if (received !== total) throw new Error(`the body ended after ${received} of its ${total} bytes`);
    return buffer;
  })().catch((e: unknown) => {
    failure = readError(url, e);
    wake();
    throw failure;
  });
  // Awaited through `slice` or `whole`; not an unhandled rejection meanwhile.
  whole.catch(() => {});
  const file: ShardFile = {
    byteLength: total,
    slice(start, end = total) {
      if (end <= received) return buffer.slice(start, end);
      if (failure) return Promise.reject(failure);
      return new Promise<void>((resolve, reject) => waiting.add({ end, resolve, reject })).then(() => buffer.slice(start, end));
    },
  };
  return { file, whole };
}
