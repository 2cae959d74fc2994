import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { Review } from '../../format';
import { servedReviewDb } from '../../load/reviews/serverReviewDb';
import { Catalog } from './catalog';
import { listenForTest } from './listenForTest';
import { ReviewLog } from './reviewLog';
import { createViewServer } from './server';

/*
 * The page's review store (load/reviews/serverReviewDb.ts) against the real view server: here, not in
 * src/load, because a page module may not import the server. `fetch` is the page's, resolved against
 * the server and carrying its Origin as a browser's same-origin request does.
 */

const tmp = mkdtempSync(join(tmpdir(), 'trajscope-review-db-'));
const dist = join(tmp, 'dist');
mkdirSync(dist);
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
const DIGEST = `sha256:${'c'.repeat(64)}`;
const OTHER = `sha256:${'d'.repeat(64)}`;
const realFetch = globalThis.fetch;

const review = (rollout_id: string, verdict: Review['verdict'], reviewer = 'mei'): Review => ({
  rollout_id,
  attempt_id: null,
  verdict,
  note: `${verdict} note`,
  reviewer,
  timestamp: '2026-12-04T10:00:00.000Z',
});

let close = () => {};

/** The page's fetch pointed at a view server over a fresh directory (with its review log unless `withLog` is false). */
async function pageOf(withLog = true) {
  const dir = mkdtempSync(join(tmp, 'run-'));
  const catalog = await Catalog.open([dir]);
  const s = await listenForTest(createViewServer({ catalog, distDir: dist, reviews: withLog ? new ReviewLog(dir) : undefined }));
  close = s.close;
  vi.stubGlobal('fetch', (url: string, init: RequestInit = {}) =>
    realFetch(new URL(url, s.base), { ...init, headers: { ...(init.headers as Record<string, string>), Origin: s.base } }),
  );
  return dir;
}

afterEach(() => {
  vi.unstubAllGlobals();
  close();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('servedReviewDb', () => {
  it('is null where the server keeps no log, or the page is not served by view', async () => {
    await pageOf(false);
    expect(await servedReviewDb()).toBeNull();
    vi.stubGlobal('fetch', async () => new Response('<!doctype html>', { headers: { 'Content-Type': 'text/html' } }));
    expect(await servedReviewDb()).toBeNull();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('offline');
    });
    expect(await servedReviewDb()).toBeNull();
  });

  it('keeps reviews in the run: puts count against the log, removes are entries, a clear removes only what is unchanged', async () => {
    const dir = await pageOf();
    const db = await servedReviewDb();
    expect(db).toMatchObject({ persistent: true, shared: true });
    if (!db) return;
    expect(await db.put(DIGEST, [review('r-1', 'agree'), review('r-2', 'unsure')])).toEqual({ added: 2, replaced: 0 });
    expect(await db.put(DIGEST, [review('r-1', 'disagree', 'jo'), review('r-3', 'agree')])).toEqual({ added: 1, replaced: 1 });
    await db.put(OTHER, [review('r-1', 'agree')]);
    expect((await db.list(DIGEST)).map((r) => [r.rollout_id, r.verdict, r.reviewer])).toEqual([
      ['r-2', 'unsure', 'mei'],
      ['r-1', 'disagree', 'jo'],
      ['r-3', 'agree', 'mei'],
    ]);

    await db.remove(DIGEST, { rollout_id: 'r-2', attempt_id: null }, 'ana');
    // Announced as r-1 agree, but it is disagree now: kept; r-3 is as announced: removed.
    expect(await db.removeIfUnchanged(DIGEST, [review('r-1', 'agree'), review('r-3', 'agree')], 'ana')).toBe(1);
    expect((await db.list(DIGEST)).map((r) => r.rollout_id)).toEqual(['r-1']);
    expect((await db.list(OTHER)).map((r) => r.rollout_id)).toEqual(['r-1']);

    const lines = readFileSync(join(dir, '.trajscope', 'reviews.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.op, l.rollout_id, l.reviewer])).toEqual([
      ['put', 'r-1', 'mei'],
      ['put', 'r-2', 'mei'],
      ['put', 'r-1', 'jo'],
      ['put', 'r-3', 'mei'],
      ['put', 'r-1', 'mei'],
      ['remove', 'r-2', 'ana'],
      ['remove', 'r-3', 'ana'],
    ]);
  });

  it('says why the server refused a write', async () => {
    await pageOf();
    const db = await servedReviewDb();
    await expect(db?.put(DIGEST, [{ ...review('r-1', 'agree'), timestamp: 'soon' }])).rejects.toThrow(/timestamp must be an ISO 8601 date/);
    await expect(db?.list('sha256:short')).rejects.toThrow(/digest must be/);
  });
});
