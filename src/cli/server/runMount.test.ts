import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../runIndex/build';
import { isRun } from '../viewRun';
import { Catalog } from './catalog';
import { createViewServer } from './server';

const root = mkdtempSync(join(tmpdir(), 'trajscope-runmount-'));
const dist = join(root, 'dist');
const run = join(root, 'run');
const index = join(root, 'index');
mkdirSync(dist);
mkdirSync(run);
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
const line = (step: number, id: string) =>
  JSON.stringify({ task_id: 't', rollout_id: id, segments: [], termination: 'finished', reward: 1, training_step: step });
writeFileSync(join(run, 'step_1.jsonl'), `${line(1, 'a')}\n${line(1, 'b')}\n`);
writeFileSync(join(run, 'step_2.jsonl'), `${line(2, 'c')}\n`);
writeFileSync(join(root, 'secret.parquet'), 'not yours');

let base = '';
let building = true;
let close = () => {};

beforeAll(async () => {
  const catalog = await Catalog.open([run]);
  const server = createViewServer({ catalog, distDir: dist, run: { indexDir: index, root: 0, building: () => building } });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

describe('trajscope view of a run directory', () => {
  it('is a run for one directory of two or more files, not for a file or several paths', async () => {
    expect(await isRun([run], await Catalog.open([run]))).toBe(true);
    expect(await isRun([join(run, 'step_1.jsonl')], await Catalog.open([join(run, 'step_1.jsonl')]))).toBe(false);
    expect(await isRun([run, dist], await Catalog.open([run, dist]))).toBe(false);
  });

  it('answers 503 while the first index is built, then the manifest pointing at its files, the shards it names, the files by range', async () => {
    expect((await fetch(`${base}/run/manifest.json`)).status).toBe(503);
    await buildIndex({ inputs: [run], outDir: index, jobs: 1 });
    building = false;
    // The bare address opens the run page.
    const bare = await fetch(`${base}/`, { redirect: 'manual' });
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('/?run=/run/');
    const manifest = await (await fetch(`${base}/run/manifest.json`)).json();
    expect(manifest.source_base).toBe('files/');
    const shard = manifest.files[0].shards[0].path as string;
    const got = await fetch(`${base}/run/${shard.split('/').map(encodeURIComponent).join('/')}`);
    expect(got.status).toBe(200);
    expect(new Uint8Array(await got.arrayBuffer()).slice(0, 4)).toEqual(new TextEncoder().encode('PAR1'));
    const ranged = await fetch(`${base}/run/files/step_1.jsonl`, { headers: { Range: 'bytes=0-9' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe(line(1, 'a').slice(0, 10));
  });

  it('serves no shard the manifest does not name, nothing through a link, nothing outside', async () => {
    mkdirSync(join(index, 'shards', 'x'), { recursive: true });
    writeFileSync(join(index, 'shards', 'x', 'extra.parquet'), 'unnamed');
    symlinkSync(join(root, 'secret.parquet'), join(index, 'shards', 'link.parquet'));
    for (const path of [
      '/run/shards/x/extra.parquet',
      '/run/shards/link.parquet',
      '/run/shards/../../secret.parquet',
      '/run/shards%2F..%2F..%2Fsecret.parquet',
      '/run/files/../secret.parquet',
      '/run/files/.trajscope/index/manifest.json',
    ]) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(404);
    }
  });

  it('serves the shards of an index named by a relative path, or reached through a link to its folder', async () => {
    // As `trajscope view public/demo/run` names it: relative to the working directory, here through a link.
    symlinkSync(root, join(root, 'alias'));
    const indexDir = relative(process.cwd(), join(root, 'alias', 'index'));
    const catalog = await Catalog.open([run]);
    const server = createViewServer({ catalog, distDir: dist, run: { indexDir, root: 0, building: () => false } });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const manifest = await (await fetch(`${at}/run/manifest.json`)).json();
      const shard = manifest.files[0].shards[0].path as string;
      const got = await fetch(`${at}/run/${shard.split('/').map(encodeURIComponent).join('/')}`);
      expect(got.status).toBe(200);
      expect((await fetch(`${at}/run/shards/link.parquet`)).status).toBe(404);
    } finally {
      server.close();
    }
  });
});
