// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runSource } from '../load';
import { startOpenedRun } from './run';

afterEach(() => {
  vi.unstubAllGlobals();
  history.replaceState(null, '', '/');
});

describe('startOpenedRun', () => {
  it('asks for the manifest of the run the address opens at once, and the page subscribing later reads it once', async () => {
    const asked: string[] = [];
    let answer = (_: Response) => {};
    vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
      asked.push(String(input));
      return new Promise<Response>((r) => (answer = r));
    });
    history.replaceState(null, '', '/?run=http://host.test/opened/');
    startOpenedRun();
    expect(asked).toEqual(['http://host.test/opened/manifest.json']);
    // The shell subscribes when it renders: the read under way is the one it gets, not a second.
    const source = runSource('http://host.test/opened/manifest.json');
    const unsubscribe = source.subscribe(() => {});
    expect(asked).toHaveLength(1);
    answer(new Response('not json', { status: 200 }));
    await vi.waitFor(() => expect(source.current.error).toMatch(/manifest/i));
    unsubscribe();
  });

  it('asks for nothing when the address opens files', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    history.replaceState(null, '', '/?view=list');
    startOpenedRun();
    expect(fetch).not.toHaveBeenCalled();
  });
});
