// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
  history.replaceState(null, '', '/');
});

/** Workers constructed when startEarly.ts is evaluated on a page at `address`. */
async function workersStartedAt(address: string): Promise<string[]> {
  const started: string[] = [];
  vi.stubGlobal(
    'Worker',
    class {
      constructor(url: URL | string) {
        started.push(String(url));
      }
    },
  );
  history.replaceState(null, '', address);
  await import('./startEarly');
  return started;
}

describe('startEarly', () => {
  // Issue 25: main.tsx imports it first, so a run page's shard worker loads its script while the rest of
  // the app's modules are evaluated (the first chart 1,560-1,640 ms against 1,656-1,750, medians of 10).
  it('starts the shard worker when the address opens a run', async () => {
    const started = await workersStartedAt('/?run=index/');
    expect(started).toHaveLength(1);
    expect(started[0]).toMatch(/shard\.worker/);
  });

  it('starts nothing when it opens files', async () => {
    expect(await workersStartedAt('/?view=list')).toEqual([]);
  });
});
