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

  it('a source read once parses its unterminated last line at the end', () => {
    const state = new LoadState();
    const src = state.addSource('a.jsonl');
    state.push(src, enc.encode(`${line('r-1')}\n{broken`));
    state.end(src);
    const snap = state.snapshot();
    expect(snap.report.parse_errors.map((e) => e.line)).toEqual([2]);
    expect(snap.pending).toEqual([]);
    expect(snap.files).toEqual([{ name: 'a.jsonl', bytes: enc.encode(`${line('r-1')}\n{broken`).length, lines: 2, gzip: false }]);
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
