import { describe, expect, it } from 'vitest';
import { findRollout, rolloutKeys } from './rolloutKeys';

const row = (rollout_id: string, attempt_id: string | null, line: number, file = 'a.jsonl') => ({ rollout_id, attempt_id, line, file });

describe('rollout keys', () => {
  const rows = [row('r-1', 'a-1', 1), row('r-1', 'a-2', 2), row('r-2', null, 3), row('r-3', 'a-1', 4), row('r-3', 'a-1', 9, 'b.jsonl')];
  const keys = rolloutKeys(rows);

  it('names a rollout by id and attempt, and a duplicate by where it is', () => {
    expect(keys).toEqual(['r-1#a-1', 'r-1#a-2', 'r-2', 'r-3#a-1@a.jsonl:4', 'r-3#a-1@b.jsonl:9']);
  });

  it('finds each row by its own key, and falls back to the first fit', () => {
    expect(keys.map((k) => findRollout(rows, keys, k))).toEqual([0, 1, 2, 3, 4]);
    expect(findRollout(rows, keys, 'r-3#a-1')).toBe(3);
    expect(findRollout(rows, keys, 'r-1')).toBe(0);
    expect(findRollout(rows, keys, 'nope')).toBe(-1);
    expect(findRollout(rows, keys, null)).toBe(-1);
  });

  it('finds an id with a lone surrogate from the URL, which can only carry it as U+FFFD', () => {
    const odd = [row('e-lone\ud800', 'a-1', 1), row('e-ok', 'a-1', 2)];
    const oddKeys = rolloutKeys(odd);
    const fromUrl = new URLSearchParams(new URLSearchParams({ rollout: oddKeys[0] ?? '' }).toString()).get('rollout');
    expect(fromUrl).toBe('e-lone\uFFFD#a-1');
    expect(findRollout(odd, oddKeys, fromUrl)).toBe(0);
    expect(findRollout(odd, oddKeys, fromUrl)).toBe(0);
  });
});
