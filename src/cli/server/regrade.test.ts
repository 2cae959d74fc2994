import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Catalog } from './catalog';
import { listenForTest } from './listenForTest';
import { PARQUET_TYPE, RegradeFile } from './regrade';
import { createViewServer } from './server';

/* `GET /api/regrade` of the view server: the run's regrade table, read only, never through a link. */

const tmp = mkdtempSync(join(tmpdir(), 'trajscope-regrade-api-'));
const dist = join(tmp, 'dist');
mkdirSync(dist);
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
const TABLE = 'PAR1 not really a table PAR1';

let closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers) c();
  closers = [];
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function serve(dir: string, withRegrade = true) {
  writeFileSync(join(dir, 'rollouts.jsonl'), '{}\n');
  const catalog = await Catalog.open([dir]);
  const s = await listenForTest(createViewServer({ catalog, distDir: dist, ...(withRegrade ? { regrade: new RegradeFile(dir) } : {}) }));
  closers.push(() => {
    s.close();
    void catalog.close();
  });
  return (method = 'GET', headers: Record<string, string> = {}) =>
    new Promise<{ status: number; type: unknown; body: string }>((resolve, reject) => {
      const req = request(`${s.base}/api/regrade`, { method, headers }, (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
      req.end();
    });
}

const runDir = () => mkdtempSync(join(tmp, 'run-'));
const withTable = (dir: string) => {
  mkdirSync(join(dir, '.trajscope', 'regrade'), { recursive: true });
  writeFileSync(join(dir, '.trajscope', 'regrade', 'regrade.parquet'), TABLE);
};

describe('GET /api/regrade', () => {
  it('answers RUN/.trajscope/regrade/regrade.parquet as it is, as Parquet', async () => {
    const dir = runDir();
    withTable(dir);
    const get = await serve(dir);
    expect(await get()).toEqual({ status: 200, type: PARQUET_TYPE, body: TABLE });
    expect(await get('HEAD')).toEqual({ status: 200, type: PARQUET_TYPE, body: '' });
  });

  it('is 404 with the command that makes one, without a table or without a run (named files)', async () => {
    const dir = runDir();
    const get = await serve(dir);
    const none = await get();
    expect([none.status, JSON.parse(none.body).error]).toEqual([404, expect.stringContaining('--out RUN/.trajscope/regrade')]);
    mkdirSync(join(dir, '.trajscope', 'regrade'), { recursive: true });
    expect((await get()).status).toBe(404);
    withTable(dir);
    expect((await (await serve(dir, false))()).status).toBe(404);
  });

  it('is read only', async () => {
    const get = await serve(runDir());
    expect((await get('POST', { 'Content-Type': 'application/json' })).status).toBe(405);
  });

  it('refuses a table that is a link, and a regrade directory that is one, showing nothing behind them', async () => {
    const secret = join(tmp, 'secret.parquet');
    writeFileSync(secret, 'secret');
    const linkedFile = runDir();
    mkdirSync(join(linkedFile, '.trajscope', 'regrade'), { recursive: true });
    symlinkSync(secret, join(linkedFile, '.trajscope', 'regrade', 'regrade.parquet'));
    const a = await (await serve(linkedFile))();
    expect(a.status).toBe(403);
    expect(a.body).not.toContain('secret"');

    const outside = join(tmp, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'regrade.parquet'), 'secret');
    const linkedDir = runDir();
    mkdirSync(join(linkedDir, '.trajscope'));
    symlinkSync(outside, join(linkedDir, '.trajscope', 'regrade'));
    const b = await (await serve(linkedDir))();
    expect([b.status, b.body]).toEqual([403, expect.stringContaining('regrade is not a real directory')]);
  });
});
