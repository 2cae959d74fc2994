import { describe, expect, it } from 'vitest';
import { isSaving, trackWrite } from './saving';

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('review writes on their way to the store', () => {
  it('count as saving until each settles, kept or failed, per review', async () => {
    const first = deferred();
    const second = deferred();
    const a = trackWrite('sha256:d', 'r-1#a-1', first.promise);
    const b = trackWrite('sha256:d', 'r-1#a-1', second.promise);
    expect(isSaving('sha256:d', 'r-1#a-1')).toBe(true);
    expect(isSaving('sha256:d', 'r-2#a-1')).toBe(false);
    expect(isSaving(null, 'r-1#a-1')).toBe(false);
    first.resolve();
    await a;
    // The later write of the same review is still pending.
    expect(isSaving('sha256:d', 'r-1#a-1')).toBe(true);
    second.reject(new Error('quota'));
    await expect(b).rejects.toThrow('quota');
    expect(isSaving('sha256:d', 'r-1#a-1')).toBe(false);
  });
});
