import { type Bytes, decompressIfGzip } from '../../format';

/*
 * Reads one rollout's bytes out of a run's file (docs/adr/0015). A plain file is read by an HTTP range
 * request for exactly that line. A gzip file cannot be entered in the middle, so it is fetched whole
 * once, decompressed, and kept; so is a plain file on a host that ignores ranges (Python's
 * `http.server` answers 200 with the whole body). Whole files are kept in a bounded cache, least
 * recently used first out. The manifest's gzip flag only chooses between a range and a whole read: a
 * whole file is decompressed when its bytes are gzip (the load's one check, `decompressIfGzip`), so a
 * file replaced since it was indexed is never decompressed, or left compressed, by what its flag said.
 */

/** Decompressed whole files kept at once, in bytes (one large file is always kept while it is read). */
const WHOLE_FILE_CACHE_BYTES = 256 * 1024 * 1024;

export interface RangeReaderOptions {
  fetch?: typeof globalThis.fetch;
  /** Told once, the first time a host answers a range request with the whole file. */
  onRangesIgnored?: (url: string) => void;
  cacheBytes?: number;
}

export class RangeReader {
  private readonly fetch: typeof globalThis.fetch;
  private readonly whole = new Map<string, Promise<Uint8Array>>();
  private readonly sizes = new Map<string, number>();
  /** Hosts (origins) seen to ignore ranges: every later read there fetches the file whole. */
  private readonly noRanges = new Set<string>();
  private told = false;

  constructor(private readonly options: RangeReaderOptions = {}) {
    this.fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
  }

  /**
   * The bytes [offset, offset + length) of the file's uncompressed content: by range, or (`whole`: the
   * manifest says gzip, or the host ignores ranges) from the whole file, decompressed if it is gzip.
   */
  async read(url: string, offset: number, length: number, whole: boolean): Promise<Uint8Array> {
    if (length === 0) return new Uint8Array(0);
    if (whole || this.noRanges.has(originOf(url))) return slice(await this.wholeFile(url), offset, length, url);
    const res = await this.fetch(url, { headers: { Range: `bytes=${offset}-${offset + length - 1}` }, cache: 'no-store' });
    if (res.status === 206) {
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (bytes.length !== length) throw new Error(`${url}: asked for ${length} bytes at ${offset}, got ${bytes.length}`);
      return bytes;
    }
    if (res.status === 200) {
      // The host sent the whole file: keep it (this read is already paid for) and stop asking for ranges there.
      this.noRanges.add(originOf(url));
      if (!this.told) {
        this.told = true;
        this.options.onRangesIgnored?.(url);
      }
      const body = new Uint8Array(await res.arrayBuffer());
      this.keep(url, Promise.resolve(body), body.length);
      return slice(body, offset, length, url);
    }
    throw new Error(`${url}: HTTP ${res.status} for bytes ${offset}-${offset + length - 1}`);
  }

  /**
   * Whether the file's bytes are gzip now (its first two, by a range request): what a range that held no
   * rollout asks, since a file indexed plain and replaced by a gzip one cannot be entered mid-stream.
   * Where the host ignores ranges every read was whole, and already decompressed by its bytes: false.
   */
  async isGzip(url: string): Promise<boolean> {
    if (this.noRanges.has(originOf(url))) return false;
    const res = await this.fetch(url, { headers: { Range: 'bytes=0-1' }, cache: 'no-store' });
    if (!res.ok || !res.body) throw new Error(`${url}: HTTP ${res.status}`);
    const { gzip, stream } = await decompressIfGzip(res.body as ReadableStream<Bytes>);
    await stream.cancel().catch(() => {});
    return gzip;
  }

  private wholeFile(url: string): Promise<Uint8Array> {
    const known = this.whole.get(url);
    if (known) {
      // Most recently used last.
      this.whole.delete(url);
      this.whole.set(url, known);
      return known;
    }
    const load = (async () => {
      const res = await this.fetch(url, { cache: 'no-store' });
      if (!res.ok || !res.body) throw new Error(`${url}: HTTP ${res.status}`);
      const { stream } = await decompressIfGzip(res.body as ReadableStream<Bytes>);
      const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
      this.sizes.set(url, bytes.length);
      this.evict();
      return bytes;
    })();
    this.whole.set(url, load);
    load.catch(() => this.whole.delete(url));
    return load;
  }

  private keep(url: string, bytes: Promise<Uint8Array>, size: number): void {
    this.whole.set(url, bytes);
    this.sizes.set(url, size);
    this.evict();
  }

  /** Drops the least recently used files until the cache fits (the newest always stays). */
  private evict(): void {
    const limit = this.options.cacheBytes ?? WHOLE_FILE_CACHE_BYTES;
    let total = 0;
    for (const url of this.whole.keys()) total += this.sizes.get(url) ?? 0;
    for (const url of this.whole.keys()) {
      if (total <= limit || this.whole.size <= 1) break;
      total -= this.sizes.get(url) ?? 0;
      this.whole.delete(url);
      this.sizes.delete(url);
    }
  }

  /** Whole files held now (for tests and the bench). */
  get cachedFiles(): number {
    return this.whole.size;
  }
}

function originOf(url: string): string {
  try {
    return new URL(url, globalThis.location?.href ?? 'http://localhost/').origin;
  } catch {
    return url;
  }
}

function slice(bytes: Uint8Array, offset: number, length: number, url: string): Uint8Array {
  if (offset + length > bytes.length)
    throw new Error(`${url}: bytes ${offset}-${offset + length - 1} are past its end (${bytes.length} bytes)`);
  return bytes.subarray(offset, offset + length);
}
