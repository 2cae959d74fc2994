import { describe, expect, it } from 'vitest';
import type { Review } from './review';
import { parseReviewsJsonl, reviewsToJsonl } from './reviewJsonl';

const A: Review = {
  rollout_id: 'r-article',
  attempt_id: 'a-1',
  verdict: 'agree',
  note: 'clean fix',
  reviewer: 'mei',
  timestamp: '2026-09-22T09:00:00.000Z',
};
const B: Review = {
  rollout_id: 'r-2',
  attempt_id: null,
  verdict: 'disagree',
  note: 'line\nbreak "quoted"',
  reviewer: '',
  timestamp: '2026-09-22T09:01:00.000Z',
};

describe('reviewsToJsonl', () => {
  it('writes one review per line with exactly the six fields', () => {
    const text = reviewsToJsonl([{ ...A, extra: 1 } as Review, B]);
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(Object.keys(JSON.parse(lines[0] ?? ''))).toEqual(['rollout_id', 'attempt_id', 'verdict', 'note', 'reviewer', 'timestamp']);
    expect(JSON.parse(lines[1] ?? '')).toEqual(B);
  });

  it('round-trips through the parser', () => {
    expect(parseReviewsJsonl(reviewsToJsonl([A, B]))).toEqual({
      entries: [
        { line: 1, review: A },
        { line: 2, review: B },
      ],
      errors: [],
      lines: 2,
    });
  });
});

describe('parseReviewsJsonl', () => {
  it('reports bad lines by 1-based number and keeps every good one', () => {
    const text = [
      JSON.stringify(A),
      '',
      '{"rollout_id": "r-3", ',
      JSON.stringify({ ...B, verdict: 'maybe' }),
      '[1, 2]',
      JSON.stringify({ ...A, rollout_id: '' }),
      JSON.stringify({ ...A, timestamp: 'yesterday' }),
      JSON.stringify({ ...A, attempt_id: 3 }),
      JSON.stringify(B),
    ].join('\r\n');
    const parsed = parseReviewsJsonl(text);
    expect(parsed.entries).toEqual([
      { line: 1, review: A },
      { line: 9, review: B },
    ]);
    expect(parsed.lines).toBe(8);
    expect(parsed.errors.map((e) => e.line)).toEqual([3, 4, 5, 6, 7, 8]);
    expect(parsed.errors[0]?.message).toMatch(/^not valid JSON/);
    expect(parsed.errors[1]?.message).toBe('verdict must be "agree", "disagree" or "unsure", got "maybe"');
    expect(parsed.errors[2]?.message).toBe('expected a JSON object, got an array');
    expect(parsed.errors[3]?.message).toBe('rollout_id must be a non-empty string, got ""');
    expect(parsed.errors[4]?.message).toBe('timestamp must be an ISO 8601 date, got "yesterday"');
    expect(parsed.errors[5]?.message).toBe('attempt_id must be a string or null, got 3');
  });

  it('says a missing field is missing, as every other reader names a value (shownValue), not "undefined"', () => {
    const { verdict: _, ...noVerdict } = A;
    const { timestamp: __, ...noTime } = A;
    const parsed = parseReviewsJsonl([JSON.stringify(noVerdict), JSON.stringify(noTime)].join('\n'));
    expect(parsed.errors.map((e) => e.message)).toEqual([
      'verdict must be "agree", "disagree" or "unsure", got nothing',
      'timestamp must be an ISO 8601 date, got nothing',
    ]);
  });

  it('fills a missing note, reviewer or attempt_id, and keeps the later of two lines for one rollout', () => {
    const parsed = parseReviewsJsonl(
      [
        JSON.stringify({ rollout_id: 'r-1', verdict: 'unsure', timestamp: A.timestamp }),
        JSON.stringify({ ...A, verdict: 'disagree' }),
        JSON.stringify(A),
      ].join('\n'),
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.entries.map((e) => e.review)).toEqual([
      { rollout_id: 'r-1', attempt_id: null, verdict: 'unsure', note: '', reviewer: '', timestamp: A.timestamp },
      A,
    ]);
    expect(parsed.entries[1]?.line).toBe(3);
  });

  it('reads an empty file as no reviews', () => {
    expect(parseReviewsJsonl('\n\n')).toEqual({ entries: [], errors: [], lines: 0 });
  });
});
