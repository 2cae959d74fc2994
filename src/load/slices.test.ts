import { describe, expect, it } from 'vitest';
import { type Pass, runPass } from '../analysis';
import { runInSlices, SLICE_MS } from './slices';

/** A pass that busy-waits `ms` per item, so slices are measurable. */
function* slow(items: number, ms: number): Pass<number> {
  for (let i = 0; i < items; i++) {
    const until = performance.now() + ms;
    while (performance.now() < until) {}
    yield (i + 1) / items;
  }
  return items * 2;
}

describe('runInSlices', () => {
  it('gives the result runPass gives, reporting progress between slices', async () => {
    const seen: number[] = [];
    const result = await runInSlices(slow(20, 2), { onProgress: (p) => seen.push(p) });
    expect(result).toBe(runPass(slow(20, 0)));
    // 40 ms of work in slices of SLICE_MS: more than one slice, each report further on.
    expect(SLICE_MS).toBeLessThan(40);
    expect(seen.length).toBeGreaterThan(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('gives the thread back between slices', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await runInSlices(slow(30, 2));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });

  it('stops between slices when aborted', async () => {
    const stop = new AbortController();
    const run = runInSlices(slow(100, 2), { signal: stop.signal, onProgress: () => stop.abort(new Error('closed')) });
    await expect(run).rejects.toThrow('closed');
  });
});
