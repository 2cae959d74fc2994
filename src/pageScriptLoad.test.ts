// @vitest-environment happy-dom
import { afterAll, describe, expect, it, vi } from 'vitest';
import { countIntlObjects } from './testing/intlMade';

/*
 * Loading the page's modules makes no Intl object (docs/adr/0031). A browser process's first one costs
 * 40-70 ms of its thread (ICU's data): made when the script loaded, it was on the page's thread before the
 * run page asked for its manifest and its shard worker could start (issue 25). The workers' scripts are
 * held to the same in src/load/worker/scriptLoad.test.ts. Formatting a number that is no count must make
 * one, so the count can fail.
 */
const made = countIntlObjects();
afterAll(() => vi.restoreAllMocks());

describe("loading the page's script", () => {
  it('makes no Intl object until a number needs one', async () => {
    await import('./ui/App');
    expect(made).toEqual([]);
    const { formatCount } = await import('./format');
    expect(formatCount(1_204_000)).toBe('1,204,000');
    expect(made).toEqual([]);
    expect(formatCount(1.5)).toBe('1.5');
    expect(made).toEqual(['NumberFormat']);
  });
});
