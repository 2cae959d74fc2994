import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { catchUp, followAction } from './follow';
import { LoadState } from './loadState';
import type { ServedFile } from './served';
import { liveFromState } from './worker/client';

const file = (size: number, ino = 7): ServedFile => ({ id: 'f0', name: 'a.jsonl', size, mtimeMs: 0, ino });
const enc = new TextEncoder();

describe('followAction', () => {
  it('reads only new bytes of a grown file', () => {
    expect(followAction(100, false, file(150), 7)).toEqual({ kind: 'append', from: 100 });
    expect(followAction(100, false, file(100), 7)).toEqual({ kind: 'none' });
    expect(followAction(100, false, undefined, 7)).toEqual({ kind: 'none' });
  });

  it('reloads a truncated, replaced, or growing gzip file', () => {
    expect(followAction(100, false, file(50), 7)).toMatchObject({ kind: 'reload', why: 'truncated' });
    expect(followAction(100, false, file(150, 8), 7)).toMatchObject({ kind: 'reload', why: 'replaced' });
    expect(followAction(100, true, file(150), 7)).toMatchObject({ kind: 'reload', why: 'gzip grew' });
  });
});

describe('catchUp', () => {
  const source = { kind: 'url' as const, id: '/files/f0', name: 'a.jsonl', url: '/files/f0' };
  const first = `${JSON.stringify(buildRollout({ rollout_id: 'r-1' }))}\n`;
  const second = `${JSON.stringify(buildRollout({ rollout_id: 'r-2' }))}\n`;

  function loaded() {
    const state = new LoadState();
    const s = state.addSource('a.jsonl', { follow: true });
    state.push(s, enc.encode(first));
    state.end(s);
    return state;
  }

  it('appends the bytes a range request returns', async () => {
    const state = loaded();
    const ranges: number[] = [];
    const outcome = await catchUp(liveFromState(state), [source], [file(first.length + second.length)], new Map(), async (_url, from) => {
      ranges.push(from);
      return new Response(second, { status: 206 });
    });
    expect(outcome).not.toBe('reload');
    expect(outcome).not.toBe('unchanged');
    expect(ranges).toEqual([first.length]);
    expect(state.snapshot().report.rollouts.map((r) => r.rollout_id)).toEqual(['r-1', 'r-2']);
  });

  it('asks for a reload when the server ignores the range (200) instead of duplicating lines', async () => {
    const state = loaded();
    const outcome = await catchUp(
      liveFromState(state),
      [source],
      [file(first.length + second.length)],
      new Map(),
      async () => new Response(first + second),
    );
    expect(outcome).toBe('reload');
    expect(state.snapshot().report.rollouts).toHaveLength(1);
  });

  it('asks for a reload when the first report shows another inode than the one the load read', async () => {
    // The file was replaced (and grew) between the load and the first list: reading on from the old offset
    // would append the new file's tail to the old file's lines.
    const state = loaded();
    const [s] = state.sources;
    if (!s) throw new Error('source');
    s.file.ino = 1;
    const fetched: number[] = [];
    const outcome = await catchUp(liveFromState(state), [source], [file(3 * first.length, 2)], new Map(), async (_u, from) => {
      fetched.push(from);
      return new Response(second, { status: 206 });
    });
    expect(outcome).toBe('reload');
    expect(fetched).toEqual([]);
  });

  it('asks for a reload when the inode changes between two reports', async () => {
    const state = loaded();
    const seen = new Map<string, number>();
    expect(await catchUp(liveFromState(state), [source], [file(first.length, 1)], seen)).toBe('unchanged');
    expect(await catchUp(liveFromState(state), [source], [file(first.length, 2)], seen)).toBe('reload');
  });
});
