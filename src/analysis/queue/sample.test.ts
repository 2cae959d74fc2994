import { describe, expect, it } from 'vitest';
import type { Stratum } from '../../format';
import { allocate, disagrees, type QueueCandidate, sampleQueue, stratumOf } from './sample';

let next = 0;
function candidate(over: Partial<QueueCandidate> = {}): QueueCandidate {
  const n = next++;
  return {
    rollout: `r-${n}`,
    file: 'a.jsonl',
    line: n + 1,
    rollout_id: `r-${n}`,
    attempt_id: null,
    task_id: `t-${n % 5}`,
    verdict: 'pass',
    regrades: [],
    scanners: [],
    ...over,
  };
}

/** 60 pass, 30 fail, 8 none, 2 error; 3 disagreements; 4 scanner hits. */
function population(): QueueCandidate[] {
  next = 0;
  const out: QueueCandidate[] = [];
  for (let i = 0; i < 60; i++) out.push(candidate({ verdict: 'pass' }));
  for (let i = 0; i < 30; i++) out.push(candidate({ verdict: 'fail' }));
  for (let i = 0; i < 8; i++) out.push(candidate({ verdict: null }));
  for (let i = 0; i < 2; i++) out.push(candidate({ verdict: 'error' }));
  // Spread over the file: the tiers come first however late their rollouts are.
  for (const i of [95, 50, 7]) out[i] = { ...(out[i] as QueueCandidate), regrades: ['fail'], verdict: 'pass' };
  for (const i of [80, 20, 3, 64])
    out[i] = { ...(out[i] as QueueCandidate), scanners: i === 3 ? ['edited-tests', 'repeated-call'] : ['edited-tests'] };
  return out;
}

describe('disagrees and stratumOf', () => {
  it('a disagreement is two different verdicts among the grader and the regrades', () => {
    expect(disagrees({ verdict: 'pass', regrades: ['fail'] })).toBe(true);
    expect(disagrees({ verdict: 'pass', regrades: ['pass', 'pass'] })).toBe(false);
    expect(disagrees({ verdict: null, regrades: ['pass', 'fail'] })).toBe(true);
    expect(disagrees({ verdict: 'fail', regrades: [] })).toBe(false);
    expect(disagrees({ verdict: null, regrades: ['pass'] })).toBe(false);
  });

  it('names the three verdicts, none and other', () => {
    expect(['pass', 'fail', 'error', null, 'partial'].map(stratumOf)).toEqual(['pass', 'fail', 'error', 'none', 'other']);
  });
});

describe('sampleQueue', () => {
  it('puts every disagreement first, then every scanner hit, each tier in file order', () => {
    const items = sampleQueue(population(), { size: 20, seed: 7 });
    expect(items).toHaveLength(20);
    expect(items.slice(0, 3).map((i) => [i.candidate.line, i.reason])).toEqual([
      [8, 'disagreement'],
      [51, 'disagreement'],
      [96, 'disagreement'],
    ]);
    expect(items.slice(3, 7).map((i) => [i.candidate.line, i.reason])).toEqual([
      [4, 'scanner:edited-tests,repeated-call'],
      [21, 'scanner:edited-tests'],
      [65, 'scanner:edited-tests'],
      [81, 'scanner:edited-tests'],
    ]);
    expect(items.slice(7).every((i) => i.reason.startsWith('stratum:'))).toBe(true);
    expect(new Set(items.map((i) => i.candidate.rollout)).size).toBe(20);
  });

  it('fills the rest in proportion to the grader verdicts, with at least one of each present', () => {
    const items = sampleQueue(population(), { size: 37, seed: 1 });
    const counts = new Map<string, number>();
    for (const i of items.slice(7)) counts.set(i.reason, (counts.get(i.reason) ?? 0) + 1);
    // 30 places over the 93 left: 56 pass, 29 fail, 6 none, 2 error.
    expect(Object.fromEntries(counts)).toEqual({ 'stratum:pass': 18, 'stratum:fail': 9, 'stratum:none': 2, 'stratum:error': 1 });
    for (const i of items.slice(7)) expect(`stratum:${stratumOf(i.candidate.verdict)}`).toBe(i.reason);
  });

  it('chooses the same items for the same seed and others for another seed', () => {
    const a = sampleQueue(population(), { size: 25, seed: 42 }).map((i) => i.candidate.rollout);
    const b = sampleQueue(population(), { size: 25, seed: 42 }).map((i) => i.candidate.rollout);
    const c = sampleQueue(population(), { size: 25, seed: 43 }).map((i) => i.candidate.rollout);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(c.slice(0, 7)).toEqual(a.slice(0, 7));
  });

  it('samples a tier larger than the queue (seeded) and gives the tiers after it nothing', () => {
    const items = sampleQueue(population(), { size: 2, seed: 3 });
    expect(items.map((i) => i.reason)).toEqual(['disagreement', 'disagreement']);
    expect(items[0]?.candidate.line).toBeLessThan(items[1]?.candidate.line ?? 0);
  });

  it('takes everything when the queue is larger than the rollouts', () => {
    expect(sampleQueue(population(), { size: 1000, seed: 0 })).toHaveLength(100);
  });
});

describe('allocate', () => {
  const sizes = (o: Partial<Record<Stratum, number>>) => new Map(Object.entries(o) as [Stratum, number][]);

  it('gives shares in proportion, summing to the budget', () => {
    expect(Object.fromEntries(allocate(sizes({ pass: 50, fail: 30, none: 20 }), 10))).toEqual({ pass: 5, fail: 3, none: 2 });
  });

  it('gives a small stratum one place, taken from the one most above its quota', () => {
    expect(Object.fromEntries(allocate(sizes({ pass: 97, error: 3 }), 5))).toEqual({ pass: 4, error: 1 });
  });

  it('with fewer places than strata, gives one each to the smallest', () => {
    expect(Object.fromEntries(allocate(sizes({ pass: 50, fail: 30, error: 2, none: 5 }), 2))).toEqual({ error: 1, none: 1 });
  });

  it('never gives a stratum more than it has', () => {
    const a = allocate(sizes({ pass: 10, fail: 1 }), 11);
    expect(Object.fromEntries(a)).toEqual({ pass: 10, fail: 1 });
  });
});
