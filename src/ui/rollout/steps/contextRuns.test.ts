import { describe, expect, it } from 'vitest';
import type { ContextChange } from '../../../analysis';
import { contextRuns, decodeRun, SHORT_KEPT, shownId, splitSpecial } from './contextRuns';

const change = (pieces: ContextChange['pieces']): ContextChange => ({ pieces, added: 0, dropped: 0, rewritten: false, approximate: false });

describe('contextRuns', () => {
  it('collapses the history the model had seen and opens what is new', () => {
    const runs = contextRuns(
      change([
        { kind: 'kept', start: 0, end: 513 },
        { kind: 'added', start: 513, end: 602 },
      ]),
      false,
    );
    expect(runs).toEqual([
      { kind: 'kept', start: 0, end: 513, collapsed: true, label: '513 tokens seen before' },
      { kind: 'added', start: 513, end: 602, collapsed: false, label: '89 tokens new' },
    ]);
  });

  it('shows a compaction as dropped and added runs between collapsed history', () => {
    const runs = contextRuns(
      change([
        { kind: 'kept', start: 0, end: 519 },
        { kind: 'dropped', start: 519, end: 596 },
        { kind: 'added', start: 519, end: 523 },
        { kind: 'kept', start: 523, end: 599 },
        { kind: 'added', start: 599, end: 656 },
      ]),
      false,
    );
    expect(runs.map((r) => [r.kind, r.collapsed, r.label])).toEqual([
      ['kept', true, '519 tokens seen before'],
      ['dropped', false, '77 tokens dropped'],
      ['added', false, '4 tokens new'],
      ['kept', true, '76 tokens unchanged'],
      ['added', false, '57 tokens new'],
    ]);
  });

  it('keeps short unchanged runs open and calls the first context initial', () => {
    const short = contextRuns(change([{ kind: 'kept', start: 0, end: SHORT_KEPT }]), false);
    expect(short[0]?.collapsed).toBe(false);
    const first = contextRuns(change([{ kind: 'added', start: 0, end: 1 }]), true);
    expect(first).toEqual([{ kind: 'initial', start: 0, end: 1, collapsed: false, label: '1 token: the first context' }]);
  });
});

describe('decodeRun', () => {
  const pieces = new Map([
    [1, '<b>'],
    [2, 'x'],
  ]);
  const byPiece = { text: () => null, piece: (id: number) => pieces.get(id) ?? null };

  it('decodes the run together when it can', () => {
    expect(decodeRun([1, 2], { text: () => 'whole', piece: () => null })).toEqual({ text: 'whole', exact: 'text' });
  });

  it('falls back to pieces, then to ids for tokens without text', () => {
    expect(decodeRun([1, 2], byPiece)).toEqual({ text: '<b>x', exact: 'pieces' });
    expect(decodeRun([1, 7], byPiece)).toEqual({ text: '<b>[#7]', exact: 'ids' });
    expect(decodeRun([7, 8], null)).toEqual({ text: '[#7][#8]', exact: 'ids' });
  });

  it('marks an id with ASCII only, which every monospace font draws itself', () => {
    // A character the page's font lacks splits the text into a fallback font's run at every id: a context
    // of thousands of ids then took several times as long to lay out (contextRuns.ts).
    const marks = [...shownId(150000)].filter((ch) => !/[0-9#]/.test(ch));
    expect(marks).toHaveLength(2);
    for (const ch of marks) expect(ch.codePointAt(0)).toBeLessThan(0x80);
  });
});

describe('splitSpecial', () => {
  it('separates chat-template control tokens from the text around them', () => {
    expect(splitSpecial('<|im_start|>user\nhi<|im_end|>\n')).toEqual(['', '<|im_start|>', 'user\nhi', '<|im_end|>', '\n']);
    expect(splitSpecial('<tool_call>{}</tool_call>')).toEqual(['<tool_call>{}</tool_call>']);
  });
});
