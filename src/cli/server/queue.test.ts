import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runFileApi } from '../../testing/runFileApi';
import { QueueFile } from './queue';

/* `GET /api/queue` of the view server (docs/review-queue.md): the run's queue file, read only, never through a link. */

const api = runFileApi('trajscope-queue-api-', '/api/queue');
const { tmp, runDir } = api;
const QUEUE = '{"version":1,"reviewers":["ana"],"items":[]}\n';

afterEach(api.closeAll);
afterAll(api.remove);

const serve = (dir: string, withQueue = true) => api.serve(dir, withQueue ? { queue: new QueueFile(dir) } : {});

describe('GET /api/queue', () => {
  it('answers the queue file as it is, and HEAD without it', async () => {
    const dir = runDir();
    mkdirSync(join(dir, '.trajscope'));
    writeFileSync(join(dir, '.trajscope', 'review-queue.json'), QUEUE);
    const get = await serve(dir);
    expect(await get()).toEqual({ status: 200, type: 'application/json', body: QUEUE });
    expect(await get('HEAD')).toEqual({ status: 200, type: 'application/json', body: '' });
  });

  it('is 404 without a queue, and without a run (named files)', async () => {
    const dir = runDir();
    const get = await serve(dir);
    const none = await get();
    expect([none.status, JSON.parse(none.body).error]).toEqual([404, expect.stringContaining('trajscope queue DIR')]);
    mkdirSync(join(dir, '.trajscope'));
    expect((await get()).status).toBe(404);
    writeFileSync(join(dir, '.trajscope', 'review-queue.json'), QUEUE);
    expect((await (await serve(dir, false))()).status).toBe(404);
  });

  it('is read only: any other method is refused, as everywhere but the review log', async () => {
    const get = await serve(runDir());
    const post = await get('POST', { 'Content-Type': 'application/json' });
    expect(post.status).toBe(405);
  });

  it('refuses a queue file that is a link, and a .trajscope that is one, showing nothing behind them', async () => {
    const secret = join(tmp, 'secret.json');
    writeFileSync(secret, '{"secret":true}');
    const linkedFile = runDir();
    mkdirSync(join(linkedFile, '.trajscope'));
    symlinkSync(secret, join(linkedFile, '.trajscope', 'review-queue.json'));
    const a = await (await serve(linkedFile))();
    expect(a.status).toBe(403);
    expect(a.body).not.toContain('secret');

    const outside = join(tmp, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'review-queue.json'), '{"secret":true}');
    const linkedDir = runDir();
    symlinkSync(outside, join(linkedDir, '.trajscope'));
    const b = await (await serve(linkedDir))();
    expect(b.status).toBe(403);
    expect(b.body).not.toContain('secret');
  });

  it('is behind the same guard as every other read: another site or another Host is refused', async () => {
    const dir = runDir();
    mkdirSync(join(dir, '.trajscope'));
    writeFileSync(join(dir, '.trajscope', 'review-queue.json'), QUEUE);
    const get = await serve(dir);
    expect((await get('GET', { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await get('GET', { Host: 'evil.example' })).status).toBe(400);
  });
});
