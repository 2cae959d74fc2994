import { describe, expect, it } from 'vitest';
import { encodeIndexShard, type RunManifest } from '../../format';
import { buildIndexRow } from '../../testing/builders';
import { manifestRows, type RunSnapshot, readRun, type ShardDecoder } from './runIndex';
import { decodeHere } from './shardFetch';

const BASE = 'http://host.test/index/manifest.json';
/** Two shards of 11 rows, each written in row groups of 4 (4 + 4 + 3). */
const SHARD_ROWS = 11;

function host() {
  const files = new Map<string, Uint8Array>();
  const shards: RunManifest['files'][number]['shards'] = [];
  for (let s = 0; s < 2; s++) {
    const rows = Array.from({ length: SHARD_ROWS }, (_, k) =>
      buildIndexRow({ line: s * SHARD_ROWS + k + 1, rollout_id: `r-${s}-${k}`, training_step: s * 3 + (k >> 2) }),
    );
    const path = `shards/part-${s}.parquet`;
    files.set(`/index/${path}`, new Uint8Array(encodeIndexShard(rows, {}, 4)));
    shards.push({ path, rows: SHARD_ROWS, from_line: s * SHARD_ROWS + 1, to_line: (s + 1) * SHARD_ROWS, from_byte: 0, to_byte: 0 });
  }
  const manifest: RunManifest = {
    version: 1,
    source_base: '../run',
    files: [{ file: 'step_0000.jsonl', size: 0, mtime_ms: 0, gzip: false, shards, parse_errors: [] }],
  };
  files.set('/index/manifest.json', new TextEncoder().encode(JSON.stringify(manifest)));
  const fetch = (async (input: RequestInfo | URL) => {
    const body = files.get(new URL(String(input)).pathname);
    return body ? new Response(body as unknown as BodyInit) : new Response('', { status: 404 });
  }) as typeof globalThis.fetch;
  return { fetch, manifest };
}

const ids = (s: RunSnapshot) => Array.from({ length: s.rows }, (_, i) => s.columns.rolloutId.at(i));

describe('readRun', () => {
  it('shows a shard’s first row group before the rest of the run is decoded, and every row once done', async () => {
    const { fetch, manifest } = host();
    const progress: number[] = [];
    const snap = await readRun(BASE, null, { fetch, onProgress: (s) => progress.push(s.rows) });
    // The first snapshot comes at once, after the first row group (4 rows), not after the first shard (11).
    expect(progress[0]).toBe(4);
    expect(snap.rows).toBe(manifestRows(manifest));
    expect(snap.rows).toBe(22);
    expect(ids(snap)).toEqual([...Array.from({ length: 11 }, (_, k) => `r-0-${k}`), ...Array.from({ length: 11 }, (_, k) => `r-1-${k}`)]);
    expect(snap.shards).toEqual(['shards/part-0.parquet', 'shards/part-1.parquet']);
  });

  it('after a read that failed mid-shard, reads the run again rather than append to rows no shard accounts for', async () => {
    const { fetch } = host();
    let shown: RunSnapshot | null = null;
    // The second shard fails after its first row group was handed over.
    const failing: ShardDecoder = async (url, rows, onPart) => {
      let parts = 0;
      await decodeHere(fetch, url, rows, (p) => {
        if (url.endsWith('part-1.parquet') && parts++ === 1) throw new Error('connection reset');
        onPart(p);
      });
    };
    await expect(readRun(BASE, null, { fetch, decode: failing, onProgress: (s) => (shown = s) })).rejects.toThrow(/connection reset/);
    expect(shown).not.toBeNull();
    const again = await readRun(BASE, shown, { fetch });
    expect(again.rows).toBe(22);
    expect(ids(again)).toEqual(ids(await readRun(BASE, null, { fetch })));
  });
});

describe('a planted manifest', () => {
  // The manifest travels with the run and is untrusted: its shard paths are checked before any is fetched,
  // so a path that leaves the index folder, or names another host, is never asked for.
  it.each(['../../secret.parquet', '//elsewhere.test/x.parquet', '/abs/x.parquet', 'shards/../../x.parquet'])(
    'reads no shard when one path is %s, and says which',
    async (planted) => {
      const { fetch, manifest } = host();
      const files = manifest.files.map((f) => ({ ...f, shards: f.shards.map((s, k) => (k === 1 ? { ...s, path: planted } : s)) }));
      const asked: string[] = [];
      const logged = (async (input: RequestInfo | URL) => {
        asked.push(String(input));
        const url = new URL(String(input));
        if (url.pathname === '/index/manifest.json') return new Response(JSON.stringify({ ...manifest, files }));
        return fetch(input);
      }) as typeof globalThis.fetch;
      // Nor is the manifest handed on (the run page would show its counts as the run's).
      const shown: unknown[] = [];
      await expect(readRun(BASE, null, { fetch: logged, onManifest: (m) => shown.push(m) })).rejects.toThrow(JSON.stringify(planted));
      expect(asked).toEqual([BASE]);
      expect(shown).toEqual([]);
    },
  );
});

describe('decodeHere', () => {
  // Issue 25: the run reader asks for two shards at once; both decoding together on one thread made the
  // first shard's first row group, the one the first chart waits for, arrive after the second shard's last.
  it('downloads and decodes shards one at a time in the order asked, whichever download ends first', async () => {
    const { fetch } = host();
    const events: string[] = [];
    const release: (() => void)[] = [];
    // Each download is held until released: the second is released first, as a faster server would.
    const held = (async (input: RequestInfo | URL) => {
      const name = String(input).split('/').pop();
      events.push(`fetch ${name}`);
      await new Promise<void>((r) => release.push(r));
      return fetch(input);
    }) as typeof globalThis.fetch;
    const url = (s: number) => new URL(`shards/part-${s}.parquet`, BASE).href;
    const decode = (s: number) => decodeHere(held, url(s), SHARD_ROWS, (p) => events.push(`part ${s}: ${p.rows} rows`));
    const both = Promise.all([decode(0), decode(1)]);
    await new Promise((r) => setTimeout(r, 20));
    // The second download has not started while the first is on its way.
    expect(events).toEqual(['fetch part-0.parquet']);
    release.shift()?.();
    while (release.length === 0) await new Promise((r) => setTimeout(r, 1));
    release.shift()?.();
    await both;
    expect(events).toEqual([
      'fetch part-0.parquet',
      'fetch part-1.parquet',
      'part 0: 4 rows',
      'part 0: 4 rows',
      'part 0: 3 rows',
      'part 1: 4 rows',
      'part 1: 4 rows',
      'part 1: 3 rows',
    ]);
  });

  it('lets the next shard go after one that failed', async () => {
    const { fetch } = host();
    const parts: number[] = [];
    const failed = decodeHere(fetch, new URL('shards/missing.parquet', BASE).href, SHARD_ROWS, () => {});
    const next = decodeHere(fetch, new URL('shards/part-1.parquet', BASE).href, SHARD_ROWS, (p) => parts.push(p.rows));
    await expect(failed).rejects.toThrow(/404|missing/);
    await next;
    expect(parts).toEqual([4, 4, 3]);
  });
});
