import { afterAll, describe, expect, it, vi } from 'vitest';
import { countIntlObjects } from '../../testing/intlMade';

/*
 * Loading a worker's script builds no zod schema (docs/adr/0031): building them was most of a lines
 * worker's start (73-127 ms of module evaluation in a trace, on the load's critical path), and a valid
 * line never needs them. Every call of a builder on `z` is counted; loading the modules must make none,
 * and reading a line the fast check rejects must make some (so the count can fail). Nor does it make an
 * Intl object: a browser process's first costs 40-70 ms of the thread that makes it, and each worker's
 * script made one (formatCount's) when it loaded (issue 25; the page's script: src/pageScriptLoad.test.ts).
 */
const intl = countIntlObjects();
afterAll(() => vi.restoreAllMocks());
const built: string[] = [];
vi.mock('zod', async (importOriginal) => {
  const real = await importOriginal<typeof import('zod')>();
  const z = new Proxy(real.z, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || key === 'config') return value;
      return (...args: unknown[]) => {
        built.push(String(key));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { ...real, z };
});

describe('loading a worker script', () => {
  it('builds no schema until a line needs one, and no Intl object', async () => {
    const { handleLinesRequest } = await import('./pool');
    const format = await import('../../format');
    await import('../run/shardDecoder');
    await import('./session');
    await import('../search/scanSources');
    expect(typeof handleLinesRequest).toBe('function');
    expect(built).toEqual([]);
    expect(intl).toEqual([]);
    const bad = format.parseLine(new TextEncoder().encode('{"task_id": 1}'), 1, 'f.jsonl');
    expect(bad?.kind).toBe('error');
    expect(built.length).toBeGreaterThan(0);
  });
});
