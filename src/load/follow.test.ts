import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { catchUp, followAction, type SeenFiles } from './follow';
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
      return new Response((first + second).slice(from), { status: 206 });
    });
    expect(outcome).not.toBe('reload');
    expect(outcome).not.toBe('unchanged');
    // From a little before the end read: those bytes are checked, so a rewrite is not taken for growth.
    expect(ranges).toEqual([0]);
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
    const seen: SeenFiles = new Map();
    expect(await catchUp(liveFromState(state), [source], [file(first.length, 1)], seen)).toBe('unchanged');
    expect(await catchUp(liveFromState(state), [source], [file(first.length, 2)], seen)).toBe('reload');
  });
});

describe('catchUp tells a rewrite from growth by content (issue 18)', () => {
  const source = { kind: 'url' as const, id: '/files/f0', name: 'a.jsonl', url: '/files/f0' };
  const rec = (id: string) => `${JSON.stringify(buildRollout({ rollout_id: id }))}\n`;
  const ids = (state: LoadState) => state.snapshot().report.rollouts.map((r) => r.rollout_id);
  /** A followed load of `initial`, and a step: the file now holds `content` (written at `mtimeMs`), catch up. */
  function follow(initial: string) {
    const state = new LoadState();
    const s = state.addSource('a.jsonl', { follow: true });
    state.push(s, enc.encode(initial));
    state.end(s);
    const seen: SeenFiles = new Map();
    const step = (content: string, mtimeMs: number) =>
      catchUp(liveFromState(state), [source], [{ ...file(content.length), mtimeMs }], seen, async (_u, from, to) => {
        const bytes = enc.encode(content);
        return new Response(bytes.slice(from, to === undefined ? undefined : to + 1), { status: 206 });
      });
    return { state, step };
  }

  it('reloads a file truncated and rewritten past its old size (same inode)', async () => {
    const content = rec('old-1') + rec('old-2');
    const { step } = follow(content);
    await step(content, 0);
    expect(await step(rec('new-1') + rec('new-2') + rec('new-3'), 1)).toBe('reload');
  });

  it('reloads a file rewritten in place at the same size', async () => {
    const content = rec('r-1') + rec('r-2');
    const { step } = follow(content);
    expect(await step(content, 0)).toBe('unchanged');
    expect(await step(rec('r-3') + rec('r-4'), 5)).toBe('reload');
  });

  it('counts a CRLF line once when its CR and LF arrive in separate writes after a whole record', async () => {
    let content = rec('r-1').trimEnd();
    const { state, step } = follow(content);
    for (const more of ['\r', '\n', rec('r-2')]) {
      content += more;
      expect(await step(content, content.length)).not.toBe('reload');
    }
    expect(ids(state)).toEqual(['r-1', 'r-2']);
    expect(state.snapshot().report.summary.lines).toBe(2);
  });
});
