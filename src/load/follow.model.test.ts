import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRollout } from '../testing/builders';
import { catchUp, type SeenFiles } from './follow';
import { LoadState } from './loadState';
import type { ServedFile } from './served';
import { liveFromState } from './worker/client';

/*
 * The follower against a model of the file (issue 18): random appends (cut anywhere, CRLF or LF, even
 * byte by byte), truncate-and-rewrite (shorter, same size in place, or past the old size), rotation to a
 * new inode, and truncation to nothing. After every step the followed load must say exactly what a fresh
 * load of the file as it now is says.
 */

const enc = new TextEncoder();
const source = { kind: 'url' as const, id: '/files/f0', name: 'a.jsonl', url: '/files/f0' };

type Op =
  | { kind: 'append'; lines: number; crlf: boolean; cut: number; bytewise: boolean }
  | { kind: 'rewrite'; lines: number; crlf: boolean }
  | { kind: 'inPlace' }
  | { kind: 'rotate'; lines: number }
  | { kind: 'empty' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      lines: fc.integer({ min: 0, max: 3 }),
      crlf: fc.boolean(),
      cut: fc.nat(400),
      bytewise: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rewrite' as const), lines: fc.integer({ min: 0, max: 6 }), crlf: fc.boolean() }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'inPlace' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rotate' as const), lines: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

/** What a load says, in the terms a person sees: rollouts, problems by line, lines counted, the held line. */
function view(state: LoadState) {
  const r = state.snapshot();
  return {
    rollouts: r.report.rollouts.map((x) => `${x.line}:${x.rollout_id}`),
    errors: r.report.parse_errors.map((e) => `${e.line}:${e.code}`),
    lines: r.report.summary.lines,
    pending: r.pending.map((p) => `${p.line}:${p.bytes}`),
  };
}

function freshLoad(content: string): LoadState {
  const state = new LoadState();
  const s = state.addSource('a.jsonl', { follow: true });
  state.push(s, enc.encode(content));
  state.end(s);
  return state;
}

describe('the live follower against a model of the file', () => {
  it('always shows what a fresh load of the file shows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        let serial = 0;
        const lines = (n: number, crlf: boolean) =>
          Array.from({ length: n }, () => `${JSON.stringify(buildRollout({ rollout_id: `r-${serial++}` }))}${crlf ? '\r\n' : '\n'}`).join(
            '',
          );
        let content = lines(2, false);
        let ino = 1;
        let mtime = 1;
        let state = freshLoad(content);
        if (state.sources[0]) state.sources[0].file.ino = ino;
        const seen: SeenFiles = new Map();
        const list = (): ServedFile[] => [{ id: 'f0', name: 'a.jsonl', size: enc.encode(content).length, mtimeMs: mtime, ino }];
        const fetchRange = async (_url: string, from: number, to?: number) => {
          const bytes = enc.encode(content);
          const end = to === undefined ? bytes.length : Math.min(bytes.length, to + 1);
          return from >= bytes.length ? new Response(null, { status: 416 }) : new Response(bytes.slice(from, end), { status: 206 });
        };
        const follow = async () => {
          const outcome = await catchUp(liveFromState(state), [source], list(), seen, fetchRange);
          if (outcome === 'reload') {
            state = freshLoad(content);
            if (state.sources[0]) state.sources[0].file.ino = ino;
            // `seen` keeps the list that caused the reload: a same-size rewrite after it is still noticed.
          }
          expect(view(state)).toEqual(view(freshLoad(content)));
        };
        // The server sends the list as the page connects, before any change.
        await follow();
        for (const o of ops) {
          if (o.kind === 'append') {
            const text =
              lines(o.lines, o.crlf) + (o.cut % 3 === 0 ? '' : JSON.stringify(buildRollout({ rollout_id: 'half' })).slice(0, o.cut));
            // Byte by byte at the end (where a CR and its LF may come apart), the rest in one write.
            const pieces = o.bytewise ? [text.slice(0, -6), ...text.slice(-6)].filter((p) => p !== '') : [text];
            for (const piece of pieces.length > 0 ? pieces : ['']) {
              content += piece;
              mtime++;
              await follow();
            }
          } else if (o.kind === 'rewrite') {
            content = lines(o.lines, o.crlf);
            mtime++;
            await follow();
          } else if (o.kind === 'inPlace') {
            // Same bytes count, different ids: every digit of every rollout id turned.
            content = content.replace(
              /"rollout_id":"r-(\d+)"/g,
              (_m, d: string) => `"rollout_id":"r-${[...d].map((c) => (Number(c) + 1) % 10).join('')}"`,
            );
            mtime++;
            await follow();
          } else if (o.kind === 'rotate') {
            content = lines(o.lines, false);
            ino++;
            mtime++;
            await follow();
          } else {
            content = '';
            mtime++;
            await follow();
          }
        }
      }),
      { seed: 18, numRuns: 30 },
    );
  });
});
