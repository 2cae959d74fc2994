import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runFileApi } from '../../testing/runFileApi';
import { PARQUET_TYPE, RegradeFile } from './regrade';

/* `GET /api/regrade` of the view server: the run's regrade table, read only, never through a link. */

const api = runFileApi('trajscope-regrade-api-', '/api/regrade');
const { tmp, runDir } = api;
const TABLE = 'PAR1 not really a table PAR1';

afterEach(api.closeAll);
afterAll(api.remove);

const serve = (dir: string, withRegrade = true) => api.serve(dir, withRegrade ? { regrade: new RegradeFile(dir) } : {});
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
