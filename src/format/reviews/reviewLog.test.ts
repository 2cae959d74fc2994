import { describe, expect, it } from 'vitest';
import { foldReviewLog, parseReviewLogPage, type ReviewLogEntry, readReviewLogLine, reviewLogLine, toReviewLogEntry } from './reviewLog';

const D1 = `sha256:${'a'.repeat(64)}`;
const D2 = `sha256:${'b'.repeat(64)}`;

const put = (rollout_id: string, verdict: 'agree' | 'disagree' | 'unsure', over: Partial<ReviewLogEntry> = {}): ReviewLogEntry =>
  ({
    op: 'put',
    digest: D1,
    rollout_id,
    attempt_id: 'a-1',
    verdict,
    note: '',
    reviewer: 'mei',
    timestamp: '2026-12-04T10:00:00.000Z',
    ...over,
  }) as ReviewLogEntry;

const remove = (rollout_id: string, over: Partial<ReviewLogEntry> = {}): ReviewLogEntry =>
  ({
    op: 'remove',
    digest: D1,
    rollout_id,
    attempt_id: 'a-1',
    reviewer: 'jo',
    timestamp: '2026-12-04T11:00:00.000Z',
    ...over,
  }) as ReviewLogEntry;

describe('toReviewLogEntry', () => {
  it('accepts a put and a remove, dropping fields it does not know and a remove’s verdict', () => {
    expect(toReviewLogEntry({ ...put('r-1', 'agree'), extra: 1 })).toEqual(put('r-1', 'agree'));
    expect(toReviewLogEntry({ ...remove('r-1'), verdict: 'agree', note: 'x' })).toEqual(remove('r-1'));
    expect(toReviewLogEntry(put('r-1', 'unsure', { attempt_id: null }))).toMatchObject({ attempt_id: null });
  });

  it.each([
    ['entry', [1]],
    ['op', { ...put('r', 'agree'), op: 'delete' }],
    ['digest', { ...put('r', 'agree'), digest: 'sha256:ABC' }],
    ['digest', { ...put('r', 'agree'), digest: `md5:${'a'.repeat(64)}` }],
    ['rollout_id', { ...put('r', 'agree'), rollout_id: '' }],
    ['rollout_id', { ...put('r', 'agree'), rollout_id: 7 }],
    ['attempt_id', { ...put('r', 'agree'), attempt_id: 3 }],
    ['attempt_id', { ...put('r', 'agree'), attempt_id: undefined }],
    ['reviewer', { ...put('r', 'agree'), reviewer: null }],
    ['timestamp', { ...put('r', 'agree'), timestamp: 'yesterday' }],
    ['verdict', { ...put('r', 'agree'), verdict: 'maybe' }],
    ['note', { ...put('r', 'agree'), note: { text: 'x' } }],
    ['timestamp', { ...remove('r'), timestamp: undefined }],
  ])('names the bad field %s', (field, value) => {
    const got = toReviewLogEntry(value);
    expect(got).toMatchObject({ field });
    expect((got as { message: string }).message).toMatch(new RegExp(`^${field} must be`));
  });
});

describe('reviewLogLine and readReviewLogLine', () => {
  it('write one line in a fixed field order and read it back', () => {
    const line = reviewLogLine(put('r-1', 'disagree', { note: 'line\nbreak "q"' }));
    expect(line).not.toContain('\n');
    expect(Object.keys(JSON.parse(line))).toEqual(['op', 'digest', 'rollout_id', 'attempt_id', 'verdict', 'note', 'reviewer', 'timestamp']);
    expect(readReviewLogLine(line)).toEqual(put('r-1', 'disagree', { note: 'line\nbreak "q"' }));
    expect(Object.keys(JSON.parse(reviewLogLine(remove('r-1'))))).toEqual([
      'op',
      'digest',
      'rollout_id',
      'attempt_id',
      'reviewer',
      'timestamp',
    ]);
  });

  it('reads a line that is not an entry as null', () => {
    expect(readReviewLogLine('{"op":"put",')).toBeNull();
    expect(readReviewLogLine(JSON.stringify({ ...put('r', 'agree'), verdict: 'maybe' }))).toBeNull();
    expect(readReviewLogLine(`${'['.repeat(300)}${']'.repeat(300)}`)).toBeNull();
  });
});

describe('foldReviewLog', () => {
  it('keeps the last entry per digest + rollout + attempt, in log order, and a remove deletes', () => {
    const folded = foldReviewLog([
      put('r-1', 'agree'),
      put('r-2', 'agree'),
      put('r-1', 'disagree', { note: 'second look', reviewer: 'jo' }),
      put('r-1', 'unsure', { attempt_id: 'a-2' }),
      put('r-1', 'agree', { digest: D2 }),
      remove('r-2'),
      put('r-3', 'unsure'),
      remove('r-3'),
      put('r-3', 'agree', { reviewer: 'ana' }),
      remove('r-9'),
    ]);
    const d1 = folded.get(D1);
    expect([...(d1?.keys() ?? [])]).toEqual(['r-1#a-1', 'r-1#a-2', 'r-3#a-1']);
    expect(d1?.get('r-1#a-1')).toEqual({
      rollout_id: 'r-1',
      attempt_id: 'a-1',
      verdict: 'disagree',
      note: 'second look',
      reviewer: 'jo',
      timestamp: '2026-12-04T10:00:00.000Z',
    });
    expect(d1?.get('r-3#a-1')?.reviewer).toBe('ana');
    expect([...(folded.get(D2)?.values() ?? [])].map((r) => r.verdict)).toEqual(['agree']);
  });

  it('tells a null attempt from an attempt named "null"', () => {
    const folded = foldReviewLog([put('r-1', 'agree', { attempt_id: null }), put('r-1', 'disagree', { attempt_id: 'null' })]);
    expect([...(folded.get(D1)?.keys() ?? [])]).toEqual(['r-1', 'r-1#null']);
  });
});

describe('parseReviewLogPage', () => {
  it('keeps the good entries in order and counts the bad ones with those the server skipped', () => {
    const text = JSON.stringify({
      log: '.trajscope/reviews.jsonl',
      entries: [put('r-1', 'agree'), { op: 'put' }, remove('r-1')],
      skipped: 2,
    });
    expect(parseReviewLogPage(text)).toEqual({ entries: [put('r-1', 'agree'), remove('r-1')], skipped: 3 });
  });

  it.each(['<!doctype html>', '[]', '{"entries": {}, "skipped": 0}', '{"entries": [], "skipped": -1}', '{"entries": []}'])(
    'is null for what is not an answer of the endpoint: %s',
    (text) => {
      expect(parseReviewLogPage(text)).toBeNull();
    },
  );
});
