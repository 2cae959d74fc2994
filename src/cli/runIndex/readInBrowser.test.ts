import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { LintSession } from '../../analysis';
import { parseLine } from '../../format';
import { checkOptionsOf, manifestUrlOf, RangeReader, readRun, runDataset, sourceUrl } from '../../load';
import { staticFetch } from '../../testing/staticFetch';
import { readJsonlFile } from '../readFile';
import { buildIndex } from './build';

const DEMO_RUN = fileURLToPath(new URL('../../../public/demo/run/', import.meta.url));
const FILES = ['step_0000.jsonl.gz', 'step_0001.jsonl.gz', 'step_0002.jsonl.gz'];
const BASE = 'http://host.test/';

/** A site: the run's files under run/ (plain copies of the gzip files beside them) and its index under index/. */
async function site() {
  const root = mkdtempSync(join(tmpdir(), 'trajscope-run-'));
  for (const f of FILES) cpSync(join(DEMO_RUN, f), join(root, 'run', f));
  // One plain file, so both ways of reading a rollout (range, whole gzip file) are exercised.
  writeFileSync(join(root, 'run', 'plain.jsonl'), gunzipSync(readFileSync(join(DEMO_RUN, 'step_0003.jsonl.gz'))));
  await buildIndex({ inputs: [join(root, 'run')], outDir: join(root, 'index'), jobs: 1, shardRows: 7 });
  return root;
}

async function lintOf(root: string) {
  const session = new LintSession();
  for (const f of [...FILES, 'plain.jsonl'].sort()) await readJsonlFile(join(root, 'run', f), (r) => session.add(r), {}, { name: f });
  return session.report();
}

describe('a run read from its index over HTTP', () => {
  it('holds every rollout with lint’s summary fields and group statistics, and reads a rollout by range', async () => {
    const root = await site();
    const host = staticFetch(root);
    const snap = await readRun(manifestUrlOf('index/', BASE), null, { fetch: host.fetch });
    const lint = await lintOf(root);
    expect(snap.rows).toBe(lint.rollouts.length);
    const reader = new RangeReader({ fetch: host.fetch });
    const ds = runDataset(snap, null, { reader, records: new Map() });
    const byKey = (r: { file: string; line: number }) => `${r.file}:${r.line}`;
    const want = new Map(lint.rollouts.map((r) => [byKey(r), r]));
    for (const r of ds.rows) {
      const l = want.get(byKey(r));
      expect(l, byKey(r)).toBeDefined();
      expect({ ...r, findings: r.findings.map((f) => f.code), regressions: r.indexed?.regressions }).toEqual({
        ...l,
        findings: [...new Set(l?.findings.map((f) => f.code))].sort(),
        regressions: l?.regressions.length,
        indexed: r.indexed,
        mismatch: r.mismatch,
      });
      // §10 as the index keeps it: lint's compared positions, and max |d| and k3 at float32 precision.
      const f32 = (x: number | null | undefined) => (x === null || x === undefined ? null : Math.fround(x));
      expect(r.mismatch).toEqual(
        l?.mismatch && {
          ...l.mismatch,
          mean_abs: null,
          ratio_mean: null,
          ratio_clip_frac: null,
          max_abs: f32(l.mismatch.max_abs),
          kl_k3: f32(l.mismatch.kl_k3),
        },
      );
    }
    expect(ds.rows.filter((r) => (r.mismatch?.n ?? 0) > 0).length).toBeGreaterThan(0);
    // What search and the checkpoints page read: every file by URL, named as the rows name it; each row's step.
    expect(ds.scanSources?.map((s) => s.name)).toEqual([...new Set(ds.rows.map((r) => r.file))].sort());
    for (const s of ds.scanSources ?? []) expect(s).toMatchObject({ kind: 'url', url: `${BASE}run/${s.name}` });
    expect(ds.trainingSteps).toEqual(lint.rollouts.map(() => expect.any(Number)));
    // §6 over the index equals lint's: mean, std, advantages, zero-variance finding.
    const lintGroups = new Map(lint.groups.map((g) => [g.group_id, g]));
    expect(ds.groups.length).toBe(lint.groups.length);
    for (const g of ds.groups) {
      const l = lintGroups.get(g.group_id);
      expect(g.mean).toBe(l?.mean);
      expect(g.std).toBe(l?.std);
      expect(g.advantages).toEqual(l?.advantages);
      expect(g.findings.some((f) => f.code === 'W_ZERO_VARIANCE_GROUP')).toBe(l?.findings.some((f) => f.code === 'W_ZERO_VARIANCE_GROUP'));
    }

    // A plain file's rollout: one range request for exactly its line, parsed as a dropped file's line is.
    const plainRow = ds.rows.findIndex((r) => r.file === 'plain.jsonl' && r.line === 5);
    const key = ds.keys[plainRow] ?? '';
    const before = host.log.length;
    const record = await ds.rollout(key);
    expect(ds.rollout(key)).toBe(ds.rollout(key));
    const text = new TextDecoder().decode(readFileSync(join(root, 'run', 'plain.jsonl'))).split('\n')[4] ?? '';
    const parsed = parseLine(text, 5, 'plain.jsonl');
    expect(parsed?.kind === 'rollout' && parsed.value.record).toEqual(record);
    const reads = host.log.slice(before);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.status).toBe(206);
    const len = new TextEncoder().encode(text).length;
    expect(reads[0]?.range).toMatch(/^bytes=\d+-\d+$/);
    const [a, b] = (reads[0]?.range ?? '').slice(6).split('-').map(Number);
    expect((b ?? 0) - (a ?? 0) + 1).toBe(len);

    // A gzip file's rollout: the file fetched whole once, then kept for its other rollouts.
    const gz = ds.rows.map((r, i) => ({ r, i })).filter(({ r }) => r.file === 'step_0001.jsonl.gz');
    const mark = host.log.length;
    const first = await ds.rollout(ds.keys[gz[0]?.i ?? 0] ?? '');
    await ds.rollout(ds.keys[gz[3]?.i ?? 0] ?? '');
    expect(host.log.slice(mark).map((e) => [e.path, e.range])).toEqual([['/run/step_0001.jsonl.gz', null]]);
    expect(first?.rollout_id).toBe(gz[0]?.r.rollout_id);

    // Issue 31: an opened rollout's summary is lint's whole summary (regressions and findings with their
    // places), the counts the row showed; a rollout with regressions among them.
    let withRegressions = 0;
    for (let i = 0; i < ds.rows.length; i++) {
      const rec = await ds.rollout(ds.keys[i] ?? '');
      if (!rec || !ds.summaryFromRecord) throw new Error('a run dataset makes whole summaries');
      const whole = ds.summaryFromRecord(i, rec);
      const row = ds.rows[i];
      const l = want.get(byKey(row ?? { file: '', line: 0 }));
      expect(whole).toEqual(l);
      expect(whole.regressions.length).toBe(row?.indexed?.regressions);
      expect(ds.summaryFromRecord(i, rec)).toBe(whole);
      if (whole.regressions.length > 0) withRegressions++;
    }
    expect(withRegressions).toBeGreaterThan(0);
  });

  it('reads the check options an index was built with from its manifest, the defaults otherwise', () => {
    expect(checkOptionsOf(undefined)).toEqual({});
    expect(checkOptionsOf('not json')).toEqual({});
    expect(checkOptionsOf('null')).toEqual({});
    expect(
      checkOptionsOf(JSON.stringify({ read: {}, rows: { driftThreshold: 0.5, unknownAsFinished: true, isCap: 3, other: 1 } })),
    ).toEqual({
      driftThreshold: 0.5,
      unknownAsFinished: true,
      isCap: 3,
    });
    expect(checkOptionsOf(JSON.stringify({ rows: { driftThreshold: '0.5' } }))).toEqual({});
  });

  it('selects a step range, and reads a grown index by fetching only its new shards', async () => {
    const root = await site();
    const host = staticFetch(root);
    const url = manifestUrlOf(`${BASE}index/manifest.json`);
    const snap = await readRun(url, null, { fetch: host.fetch });
    const steps = [...new Set(Array.from(snap.columns.step.subarray(0, snap.rows)))].sort((x, y) => x - y);
    const one = steps[1] ?? 0;
    const ds = runDataset(snap, { from: one, to: one }, { reader: new RangeReader({ fetch: host.fetch }), records: new Map() });
    expect(ds.rows.length).toBeGreaterThan(0);
    expect(ds.rows.length).toBe(Array.from(snap.columns.step.subarray(0, snap.rows)).filter((s) => s === one).length);

    cpSync(join(DEMO_RUN, 'step_0004.jsonl.gz'), join(root, 'run', 'step_0004.jsonl.gz'));
    await buildIndex({ inputs: [join(root, 'run')], outDir: join(root, 'index'), jobs: 1, shardRows: 7 });
    const mark = host.log.length;
    const next = await readRun(url, snap, { fetch: host.fetch });
    const fetched = host.log.slice(mark).filter((e) => e.path.endsWith('.parquet'));
    expect(next.rows).toBe(snap.rows + 16);
    expect(next.columns).toBe(snap.columns);
    expect(fetched.every((e) => e.path.includes('step_0004'))).toBe(true);
    expect(fetched.length).toBe(3); // 16 rows in shards of 7
    const unchanged = await readRun(url, next, { fetch: host.fetch });
    expect(unchanged.version).toBe(next.version);
  });
});

describe('a run file replaced since it was indexed', () => {
  /** The site's run, indexed, then one file's bytes replaced; the dataset over the old index. */
  async function replaced(file: string, bytes: (old: Buffer) => Uint8Array) {
    const root = await site();
    const host = staticFetch(root);
    const snap = await readRun(manifestUrlOf('index/', BASE), null, { fetch: host.fetch });
    const path = join(root, 'run', file);
    const old = readFileSync(path);
    writeFileSync(path, bytes(old));
    const ds = runDataset(snap, null, { reader: new RangeReader({ fetch: host.fetch }), records: new Map() });
    const i = ds.rows.findIndex((r) => r.file === file && r.line === 3);
    return { ds, key: ds.keys[i] ?? '', want: ds.rows[i], host };
  }

  it('flagged gzip, now plain (the same rollouts): read whole and not decompressed, since its bytes are not gzip', async () => {
    const { ds, key, want } = await replaced('step_0001.jsonl.gz', (old) => gunzipSync(old));
    expect((await ds.rollout(key))?.rollout_id).toBe(want?.rollout_id);
  });

  it('flagged plain, now gzip (the same rollouts): the range holds no rollout, the file’s first bytes say gzip, read whole and decompressed', async () => {
    const { ds, key, want, host } = await replaced('plain.jsonl', (old) => gzipSync(old));
    const mark = host.log.length;
    expect((await ds.rollout(key))?.rollout_id).toBe(want?.rollout_id);
    expect(host.log.slice(mark).map((e) => [e.path, e.range])).toEqual([
      ['/run/plain.jsonl', expect.stringMatching(/^bytes=[1-9]\d*-\d+$/)],
      ['/run/plain.jsonl', 'bytes=0-1'],
      ['/run/plain.jsonl', null],
    ]);
  });

  it('flagged gzip, now other plain bytes; flagged plain, now other gzip bytes: an error naming the line and what to do, no binary', async () => {
    const other = new TextEncoder().encode(`${'{"not":"a rollout"}\n'.repeat(5000)}`);
    for (const [file, bytes] of [
      ['step_0001.jsonl.gz', other],
      ['plain.jsonl', gzipSync(other)],
    ] as const) {
      const { ds, key } = await replaced(file, () => bytes);
      const error = await Promise.resolve(ds.rollout(key)).then(
        () => null,
        (e: Error) => e.message,
      );
      expect(error).toMatch(new RegExp(`^${file.replace('.', '\\.')}:3: .*index the run again\\)$`));
      // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be in a message
      expect(error).not.toMatch(/[\u0000-\u0008\ufffd]/);
    }
  });
});

describe('RangeReader', () => {
  it('on a host that ignores ranges, says so once and slices the whole file it was sent', async () => {
    const root = await site();
    const host = staticFetch(root, false);
    const told: string[] = [];
    const reader = new RangeReader({ fetch: host.fetch, onRangesIgnored: (u) => told.push(u) });
    const url = sourceUrl(`${BASE}index/manifest.json`, '../run', 'plain.jsonl');
    const whole = readFileSync(join(root, 'run', 'plain.jsonl'));
    expect(await reader.read(url, 10, 20, false)).toEqual(new Uint8Array(whole.subarray(10, 30)));
    expect(await reader.read(url, 100, 5, false)).toEqual(new Uint8Array(whole.subarray(100, 105)));
    expect(told).toEqual([url]);
    expect(host.log).toHaveLength(1);
  });

  it('keeps whole files within its byte budget, the newest first', async () => {
    const root = await site();
    const host = staticFetch(root);
    const reader = new RangeReader({ fetch: host.fetch, cacheBytes: 1 });
    for (const f of FILES) await reader.read(sourceUrl(`${BASE}index/`, '../run', f), 0, 10, true);
    expect(reader.cachedFiles).toBe(1);
  });

  it('names the file and the bytes when a read falls outside the file', async () => {
    const root = await site();
    const reader = new RangeReader({ fetch: staticFetch(root).fetch });
    await expect(reader.read(sourceUrl(`${BASE}index/`, '../run', FILES[0] ?? ''), 1e9, 10, true)).rejects.toThrow(/past its end/);
  });
});
