import { describe, expect, it } from 'vitest';
import { buildRollout, toJsonl } from '../testing/builders';
import { LoadState } from './loadState';

const enc = new TextEncoder();
const line = (id: string) => JSON.stringify(buildRollout({ rollout_id: id }));

describe('LoadState', () => {
  it('a followed source holds back its half-written last line, then completes it from later bytes', () => {
    const state = new LoadState();
    const src = state.addSource('live.jsonl', { follow: true });
    const first = line('r-1');
    const second = line('r-2');
    state.push(src, enc.encode(`${first}\n${second.slice(0, 30)}`));
    state.end(src);
    let snap = state.snapshot();
    expect(snap.report.rollouts.map((r) => r.rollout_id)).toEqual(['r-1']);
    expect(snap.report.parse_errors).toEqual([]);
    expect(snap.pending).toEqual([{ file: 'live.jsonl', line: 2, bytes: 30 }]);

    state.push(src, enc.encode(`${second.slice(30)}\n`));
    state.end(src);
    snap = state.snapshot();
    expect(snap.report.rollouts.map((r) => r.rollout_id)).toEqual(['r-1', 'r-2']);
    expect(snap.pending).toEqual([]);
    expect(snap.report.summary.lines).toBe(2);
    expect(snap.records).toHaveLength(2);
  });

  it('a followed source reads a last line that is already a whole record, as lint does; its newline may come later', () => {
    // A file that simply ends without a newline must not lose its last rollout (it changed group statistics).
    const third = `${line('r-3')}\n`;
    for (const appends of [[`\n${third}`], [`\r\n${third}`], ['\n', third]]) {
      const state = new LoadState();
      const src = state.addSource('live.jsonl', { follow: true });
      const bytes = enc.encode(`${line('r-1')}\n${line('r-2')}`);
      state.push(src, bytes);
      state.end(src);
      let snap = state.snapshot();
      expect(snap.report.rollouts.map((r) => r.rollout_id)).toEqual(['r-1', 'r-2']);
      expect(snap.pending).toEqual([]);
      expect(snap.files[0]).toMatchObject({ bytes: bytes.length, lines: 2 });

      // The writer then finishes the line and appends another: no empty line, no duplicate, lines still count true.
      for (const bytes of appends) {
        state.push(src, enc.encode(bytes));
        state.end(src);
      }
      snap = state.snapshot();
      expect(snap.report.rollouts.map((r) => [r.rollout_id, r.line])).toEqual([
        ['r-1', 1],
        ['r-2', 2],
        ['r-3', 3],
      ]);
      expect(snap.report.summary.lines).toBe(3);
    }
  });

  it('a followed source still holds back a last line that is not yet whole JSON (a number could grow, too)', () => {
    for (const tail of ['{"task_id": "t", "rollout_id": "r-2"', '[1, 2', '12']) {
      const state = new LoadState();
      const src = state.addSource('live.jsonl', { follow: true });
      state.push(src, enc.encode(`${line('r-1')}\n${tail}`));
      state.end(src);
      const snap = state.snapshot();
      expect(snap.report.parse_errors).toEqual([]);
      expect(snap.pending).toEqual([{ file: 'live.jsonl', line: 2, bytes: tail.length }]);
    }
  });

  it('a source read once parses its unterminated last line at the end', () => {
    const state = new LoadState();
    const src = state.addSource('a.jsonl');
    state.push(src, enc.encode(`${line('r-1')}\n{broken`));
    state.end(src);
    const snap = state.snapshot();
    expect(snap.report.parse_errors.map((e) => e.line)).toEqual([2]);
    expect(snap.pending).toEqual([]);
    expect(snap.files).toMatchObject([{ name: 'a.jsonl', bytes: enc.encode(`${line('r-1')}\n{broken`).length, lines: 2, gzip: false }]);
  });

  it('groups and duplicates are judged across sources and across appends', () => {
    const state = new LoadState();
    const a = state.addSource('a.jsonl', { follow: true });
    state.push(a, enc.encode(toJsonl([buildRollout({ rollout_id: 'x', reward: 1 })])));
    state.end(a);
    state.push(a, enc.encode(toJsonl([buildRollout({ rollout_id: 'y', reward: 0 })])));
    const snap = state.snapshot();
    expect(snap.report.groups[0]?.rollouts).toBe(2);
    expect(snap.advantages.drGrpo).toEqual([0.5, -0.5]);
  });
});
