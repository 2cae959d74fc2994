import { parquetMetadata } from 'hyparquet';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeIndexShard } from '../../format';
import { buildIndexRow } from '../../testing/builders';
import { TAIL_BYTES } from './shardBytes';
import { decodeHere } from './shardFetch';

/*
 * Issue 25: the run page's first chart waited for the whole first shard to download before its first row
 * group was decoded. With the shard's size in the manifest, its footer is read by range first and the
 * first group decodes while the rest of the file is still on its way; every host that cannot do that
 * (no ranges, a suffix read as a prefix, another file than the manifest's) still reads the shard whole.
 */

const URL_ = 'http://host.test/index/shards/part-0.parquet';
const ROWS = 25_000;

let file: Uint8Array;
/** Bytes the held body sends before it waits: the first row group's (2,000 rows), no more. */
let SENT_FIRST = 0;
beforeAll(() => {
  const rows = Array.from({ length: ROWS }, (_, k) =>
    buildIndexRow({ line: k + 1, rollout_id: `rollout-${k}-${(k * 2654435761) % 1e9}`, reward: (k % 97) / 97, training_step: k >> 10 }),
  );
  file = new Uint8Array(encodeIndexShard(rows));
  const first = parquetMetadata(file.buffer as ArrayBuffer).row_groups[0];
  SENT_FIRST = Math.max(
    ...(first?.columns ?? []).map((c) => Number(c.meta_data?.data_page_offset) + Number(c.meta_data?.total_compressed_size)),
  );
  // What the tests need of the file: bigger than the tail read twice, and groups after the first.
  expect(file.length).toBeGreaterThan(2 * TAIL_BYTES);
  expect(SENT_FIRST).toBeLessThan(file.length / 4);
});

type Ranges = 'exact' | 'ignored' | 'as a prefix';

/** Every host's held body let go after each test: shards are read one at a time, so one held would hold the next test's. */
const holds: (() => void)[] = [];
afterEach(() => {
  for (const release of holds.splice(0)) release();
});

/**
 * A host of the one shard. Its body sends SENT_FIRST bytes, then waits for `release()` (or, `cut`, ends
 * there). Range reads are answered as `ranges` says; `etags` are the body's and the range's.
 */
function host(ranges: Ranges, options: { cut?: boolean; etags?: [string, string] } = {}) {
  const asked: string[] = [];
  let cancelled = 0;
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  holds.push(() => release());
  const stream = (bytes: Uint8Array, hold: boolean) => {
    let at = 0;
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (hold && at >= SENT_FIRST) {
          if (options.cut) return controller.close();
          await released;
        }
        const end = Math.min(bytes.length, at + 16 * 1024, hold && at < SENT_FIRST ? SENT_FIRST : Number.POSITIVE_INFINITY);
        controller.enqueue(bytes.slice(at, end));
        at = end;
        if (at >= bytes.length) controller.close();
      },
      cancel() {
        cancelled++;
      },
    });
  };
  const whole = (etag: string | undefined) =>
    new Response(stream(file, true), { headers: { 'content-length': String(file.length), ...(etag ? { etag } : {}) } });
  const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) => {
    const range = new Headers(init?.headers).get('range');
    asked.push(range ?? 'GET');
    if (!range) return whole(options.etags?.[0]);
    if (ranges === 'ignored') return whole(options.etags?.[0]);
    const [, s, e] = /^bytes=(\d+)-(\d+)$/.exec(range) ?? [];
    // A static host reading the range's numbers as the first bytes' (sirv reads `bytes=-N` so).
    const [start, end] = ranges === 'exact' ? [Number(s), Number(e)] : [0, Number(e) - Number(s)];
    return new Response(file.slice(start, end + 1), {
      status: 206,
      headers: { 'content-range': `bytes ${start}-${end}/${file.length}`, ...(options.etags ? { etag: options.etags[1] } : {}) },
    });
  }) as typeof globalThis.fetch;
  return { fetch, asked, release, cancelled: () => cancelled };
}

const settle = () => new Promise((r) => setTimeout(r, 50));
async function until(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 5) {
    if (waited > 10_000) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('a shard read as it arrives', () => {
  it('decodes the first row group while the rest of the file is still on its way, its footer read by range first', async () => {
    const h = host('exact');
    const parts: number[] = [];
    const done = decodeHere(h.fetch, URL_, ROWS, (p) => parts.push(p.rows), file.length);
    await until(() => parts.length > 0);
    // The body has sent the first group's bytes and waits.
    expect(parts).toEqual([2_000]);
    expect(h.asked).toEqual([`bytes=${file.length - TAIL_BYTES}-${file.length - 1}`, 'GET']);
    h.release();
    await done;
    expect(parts).toEqual([2_000, 10_000, 10_000, 3_000]);
  });

  it.each<[string, Ranges, { etags?: [string, string] }]>([
    ['answers no ranges (and its second copy is not read)', 'ignored', {}],
    ['reads a range as the first bytes', 'as a prefix', {}],
    ['gives the range from another file (another ETag)', 'exact', { etags: ['"a"', '"b"'] }],
  ])('reads the shard whole from a host that %s', async (_, ranges, options) => {
    const h = host(ranges, options);
    const parts: number[] = [];
    const done = decodeHere(h.fetch, URL_, ROWS, (p) => parts.push(p.rows), file.length);
    await settle();
    expect(parts).toEqual([]);
    h.release();
    await done;
    expect(parts).toEqual([2_000, 10_000, 10_000, 3_000]);
    if (ranges === 'ignored') expect(h.cancelled()).toBe(1);
  });

  it('reads the shard whole when the manifest gives another size', async () => {
    const h = host('exact');
    const parts: number[] = [];
    const done = decodeHere(h.fetch, URL_, ROWS, (p) => parts.push(p.rows), file.length + 1);
    await settle();
    expect(parts).toEqual([]);
    h.release();
    await done;
    expect(parts).toEqual([2_000, 10_000, 10_000, 3_000]);
    // The range was asked for with the GET, and its answer (of a file of another size) left unused.
    expect(h.asked).toEqual([`bytes=${file.length + 1 - TAIL_BYTES}-${file.length}`, 'GET']);
  });

  it('fails naming the shard when its length is more than a buffer holds (a planted size and Content-Length)', async () => {
    const huge = 2 ** 45;
    let cancelled = false;
    const body = new ReadableStream({
      cancel() {
        cancelled = true;
      },
    });
    const fetch = (async (_input: RequestInfo | URL, init?: RequestInit) =>
      new Headers(init?.headers).has('range')
        ? new Response('', { status: 416 })
        : new Response(body, { headers: { 'content-length': String(huge) } })) as typeof globalThis.fetch;
    await expect(decodeHere(fetch, URL_, ROWS, () => {}, huge)).rejects.toThrow(`could not read ${URL_}: `);
    expect(cancelled).toBe(true);
  });

  it('fails naming the shard when its body ends early, after handing over the groups that came', async () => {
    const h = host('exact', { cut: true });
    const parts: number[] = [];
    await expect(decodeHere(h.fetch, URL_, ROWS, (p) => parts.push(p.rows), file.length)).rejects.toThrow(
      `could not read ${URL_}: the body ended after ${SENT_FIRST} of its ${file.length} bytes`,
    );
    expect(parts).toEqual([2_000]);
  });
});
