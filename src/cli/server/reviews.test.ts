import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REVIEW_ENTRY_BYTES } from '../../format/reviews/reviewLog';
import { Catalog } from './catalog';
import { listenForTest } from './listenForTest';
import { ReviewLog } from './reviewLog';
import { createViewServer } from './server';

/*
 * `/api/reviews` of the view server (docs/adr/0026), over real directories: the one write the server
 * takes, what it refuses, and the log it keeps.
 */

const tmp = mkdtempSync(join(tmpdir(), 'trajscope-reviews-'));
const dist = join(tmp, 'dist');
mkdirSync(dist);
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

const entry = (over: Record<string, unknown> = {}) => ({
  op: 'put',
  digest: D1,
  rollout_id: 'r-1',
  attempt_id: 'a-1',
  verdict: 'agree',
  note: 'clean fix',
  reviewer: 'mei',
  timestamp: '2026-12-04T10:00:00.000Z',
  ...over,
});

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

let served: { base: string; port: number; close: () => void }[] = [];

/** A served run directory (a fresh one unless given) with its review log. */
async function serve(dir = mkdtempSync(join(tmp, 'run-')), withLog = true) {
  writeFileSync(join(dir, 'rollouts.jsonl'), '{}\n');
  const catalog = await Catalog.open([dir]);
  const s = await listenForTest(createViewServer({ catalog, distDir: dist, reviews: withLog ? new ReviewLog(dir) : undefined }));
  served.push(s);
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request(`${s.base}${path}`, { method, headers }, (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  const origin = `http://127.0.0.1:${s.port}`;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    send('POST', '/api/reviews', { Origin: origin, 'Content-Type': 'application/json', ...headers }, JSON.stringify(body));
  const log = () => readFileSync(join(dir, '.trajscope', 'reviews.jsonl'), 'utf8');
  return { dir, base: s.base, origin, send, post, log };
}

beforeAll(() => {
  served = [];
});
afterEach(() => {
  for (const s of served) s.close();
  served = [];
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('GET and POST /api/reviews', () => {
  it('answers an empty log without making .trajscope, appends an entry as one line, and reads it back', async () => {
    const run = await serve();
    const empty = await run.send('GET', '/api/reviews');
    expect(empty.status).toBe(200);
    expect(empty.headers['content-type']).toBe('application/json');
    expect(JSON.parse(empty.body)).toEqual({ log: '.trajscope/reviews.jsonl', entries: [], skipped: 0 });
    expect(() => readFileSync(join(run.dir, '.trajscope'))).toThrow();

    const posted = await run.post({ ...entry(), extra: 'dropped' });
    expect(posted.status).toBe(201);
    expect(JSON.parse(posted.body)).toEqual(entry());
    expect(run.log()).toBe(`${JSON.stringify(entry())}\n`);
    await run.post(entry({ op: 'remove', verdict: undefined, note: undefined, reviewer: 'jo' }));
    await run.post(entry({ digest: D2 }));
    const all = JSON.parse((await run.send('GET', '/api/reviews')).body);
    expect(all.entries.map((e: { op: string; digest: string }) => [e.op, e.digest])).toEqual([
      ['put', D1],
      ['remove', D1],
      ['put', D2],
    ]);
    // The log is append-only: the remove is an entry, the put before it stays.
    expect(run.log().trimEnd().split('\n')).toHaveLength(3);
    const one = JSON.parse((await run.send('GET', `/api/reviews?digest=${D2}`)).body);
    expect(one.entries).toEqual([entry({ digest: D2 })]);
    expect((await run.send('GET', '/api/reviews?digest=sha256:nope')).body).toContain('"field":"digest"');
  });

  it('lands 50 entries posted at once as 50 whole lines', async () => {
    const run = await serve();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => run.post(entry({ rollout_id: `r-${i}`, note: `n${i} ${'x'.repeat(i * 500)}` }))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    const lines = run.log().split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(50);
    const ids = lines.map((l) => JSON.parse(l).rollout_id as string);
    expect(new Set(ids).size).toBe(50);
    expect(JSON.parse((await run.send('GET', '/api/reviews')).body).skipped).toBe(0);
  });

  it('announces each append on the event stream', async () => {
    const run = await serve();
    const heard = await new Promise<string>((resolve, reject) => {
      const req = request(`${run.base}/api/events`, (res) => {
        let text = '';
        // The stream opens with the file list; the review is posted once it is open.
        res.once('data', () => void run.post(entry()));
        res.on('data', (c) => {
          text += c;
          const m = /event: reviews\ndata: (.*)\n\n/.exec(text);
          if (m?.[1]) {
            req.destroy();
            resolve(m[1]);
          }
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(heard).toBe(D1);
  });

  it('skips and counts log lines that are not entries, never hiding the others; an append after a cut line stands alone', async () => {
    const dir = mkdtempSync(join(tmp, 'run-'));
    mkdirSync(join(dir, '.trajscope'));
    const good = JSON.stringify(entry());
    const lines = [
      good,
      'not json',
      JSON.stringify(entry({ verdict: 'maybe' })),
      '',
      `{"note":"${'x'.repeat(MAX_REVIEW_ENTRY_BYTES + 10)}"}`,
      JSON.stringify(entry({ rollout_id: 'r-2' })),
    ];
    writeFileSync(
      join(dir, '.trajscope', 'reviews.jsonl'),
      Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from('{"op":"put"')]),
    );
    const run = await serve(dir);
    const page = JSON.parse((await run.send('GET', '/api/reviews')).body);
    expect(page.entries.map((e: { rollout_id: string }) => e.rollout_id)).toEqual(['r-1', 'r-2']);
    expect(page.skipped).toBe(5);
    expect((await run.post(entry({ rollout_id: 'r-3' }))).status).toBe(201);
    const after = JSON.parse((await run.send('GET', '/api/reviews')).body);
    expect(after.entries.map((e: { rollout_id: string }) => e.rollout_id)).toEqual(['r-1', 'r-2', 'r-3']);
    expect(after.skipped).toBe(5);
  });
});

describe('what /api/reviews refuses', () => {
  it.each([
    ['another site’s Origin', { Origin: 'http://evil.example' }, 403],
    ['no Origin', { Origin: '' }, 403],
    ['a cross-site fetch', { 'Sec-Fetch-Site': 'cross-site' }, 403],
    ['a form post', { 'Content-Type': 'application/x-www-form-urlencoded' }, 415],
    ['text/plain', { 'Content-Type': 'text/plain' }, 415],
    ['another Host', { Host: 'evil.example' }, 400],
  ])('a post with %s (%j) is %i and writes nothing', async (_what, headers, status) => {
    const run = await serve();
    const sent: Record<string, string> = { Origin: run.origin, 'Content-Type': 'application/json', ...headers };
    if (sent.Origin === '') delete sent.Origin;
    const answer = await run.send('POST', '/api/reviews', sent, JSON.stringify(entry()));
    expect(answer.status).toBe(status);
    expect(() => run.log()).toThrow();
  });

  it('refuses a body past 64 KiB, declared or streamed, and reads no more of it', async () => {
    const run = await serve();
    const big = JSON.stringify(entry({ note: 'x'.repeat(MAX_REVIEW_ENTRY_BYTES) }));
    expect((await run.post(JSON.parse(big))).status).toBe(413);
    const chunked = await run.send(
      'POST',
      '/api/reviews',
      { Origin: run.origin, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      Buffer.from(big),
    );
    expect(chunked.status).toBe(413);
    expect(() => run.log()).toThrow();
    // Just under the limit is fine.
    const fits = entry({ note: 'x'.repeat(MAX_REVIEW_ENTRY_BYTES - 400) });
    expect((await run.post(fits)).status).toBe(201);
  });

  it.each([
    ['verdict', entry({ verdict: 'maybe' })],
    ['digest', entry({ digest: 'abc' })],
    ['rollout_id', entry({ rollout_id: '' })],
    ['attempt_id', entry({ attempt_id: 2 })],
    ['note', entry({ note: null })],
    ['reviewer', entry({ reviewer: undefined })],
    ['timestamp', entry({ timestamp: 'soon' })],
    ['op', entry({ op: 'rewrite' })],
    ['entry', [entry()]],
  ])('answers 400 naming the bad field %s', async (field, body) => {
    const run = await serve();
    const answer = await run.post(body);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ field, error: expect.stringMatching(new RegExp(`^${field} must be`)) });
  });

  it('answers 400 to a body that is not JSON, naming the body', async () => {
    const run = await serve();
    const answer = await run.send('POST', '/api/reviews', { Origin: run.origin, 'Content-Type': 'application/json' }, '{"op":');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).field).toBe('body');
  });

  it('refuses a .trajscope that is a link, a log that is a link or a hard link, and writes nothing through them', async () => {
    const outside = mkdtempSync(join(tmp, 'outside-'));
    const linkedDir = mkdtempSync(join(tmp, 'run-'));
    symlinkSync(outside, join(linkedDir, '.trajscope'));
    const viaDir = await serve(linkedDir);
    expect((await viaDir.post(entry())).status).toBe(403);
    expect((await viaDir.send('GET', '/api/reviews')).status).toBe(403);
    expect(() => readFileSync(join(outside, 'reviews.jsonl'))).toThrow();

    const linkedLog = mkdtempSync(join(tmp, 'run-'));
    mkdirSync(join(linkedLog, '.trajscope'));
    writeFileSync(join(outside, 'target.jsonl'), 'mine\n');
    symlinkSync(join(outside, 'target.jsonl'), join(linkedLog, '.trajscope', 'reviews.jsonl'));
    const viaLog = await serve(linkedLog);
    expect((await viaLog.post(entry())).status).toBe(403);
    expect((await viaLog.send('GET', '/api/reviews')).status).toBe(403);

    const hardLog = mkdtempSync(join(tmp, 'run-'));
    mkdirSync(join(hardLog, '.trajscope'));
    linkSync(join(outside, 'target.jsonl'), join(hardLog, '.trajscope', 'reviews.jsonl'));
    const viaHard = await serve(hardLog);
    expect((await viaHard.post(entry())).status).toBe(403);
    expect(readFileSync(join(outside, 'target.jsonl'), 'utf8')).toBe('mine\n');
  });

  it('is a 404 where no log is kept (named files), and 405 to other methods', async () => {
    const files = await serve(undefined, false);
    expect((await files.send('GET', '/api/reviews')).status).toBe(404);
    expect((await files.post(entry())).status).toBe(404);
    const run = await serve();
    const put = await run.send('PUT', '/api/reviews', { Origin: run.origin, 'Content-Type': 'application/json' }, JSON.stringify(entry()));
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD, POST');
    // The rest of the server stays read-only.
    expect((await run.send('POST', '/api/files', { Origin: run.origin })).status).toBe(405);
  });
});
