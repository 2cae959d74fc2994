import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChangeFeed, POLL_MIN_MS } from './changes';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('ChangeFeed', () => {
  it('lists on a change notification, never two listings at once, and stops when the last listener leaves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-feed-'));
    writeFileSync(join(dir, 'a.jsonl'), '');
    let running = 0;
    let overlap = 0;
    let listings = 0;
    let version = 0;
    const announced: string[] = [];
    const feed = new ChangeFeed({
      snapshot: async () => {
        running++;
        overlap = Math.max(overlap, running);
        listings++;
        await sleep(40);
        running--;
        return String(version);
      },
      roots: () => [{ path: dir, depth: 0 }],
      announce: (s) => announced.push(s),
    });
    const leave = feed.listen();
    await sleep(100);
    // A burst of writes, faster than a listing takes.
    const started = Date.now();
    for (let i = 0; i < 30; i++) {
      version++;
      appendFileSync(join(dir, 'a.jsonl'), 'x\n');
      await sleep(10);
    }
    await sleep(300);
    expect(overlap).toBe(1);
    // Told of the last state, well before the fallback poll would have come round.
    expect(announced[announced.length - 1]).toBe(String(version));
    expect(Date.now() - started).toBeLessThan(POLL_MIN_MS * 2);
    leave();
    const after = listings;
    appendFileSync(join(dir, 'a.jsonl'), 'x\n');
    await sleep(POLL_MIN_MS + 500);
    expect(listings - after).toBeLessThanOrEqual(1);
    const settled = listings;
    await sleep(POLL_MIN_MS + 300);
    expect(listings).toBe(settled);
  });

  it('falls back to a poll no busier than 1/40 of the listing time when notifications miss a change', async () => {
    let listings = 0;
    const feed = new ChangeFeed({
      snapshot: async () => {
        listings++;
        return String(listings);
      },
      // Nothing to watch: only the poll can notice changes.
      roots: () => [],
      announce: () => {},
    });
    const leave = feed.listen();
    await sleep(POLL_MIN_MS * 2 + 300);
    leave();
    expect(listings).toBeGreaterThanOrEqual(2);
    expect(listings).toBeLessThanOrEqual(4);
  });
});
