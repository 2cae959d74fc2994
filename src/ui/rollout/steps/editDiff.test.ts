import { describe, expect, it } from 'vitest';
import { type DiffLine, editDiff } from './editDiff';

const text = (l: DiffLine) => l.parts.map((p) => p.text).join('');
const changed = (l: DiffLine) =>
  l.parts
    .filter((p) => p.changed)
    .map((p) => p.text)
    .join('|');

describe('editDiff', () => {
  it('shows a one-line edit as the old line and the new line, marking the words that differ', () => {
    const lines = editDiff('low = mid', 'low = mid + 1');
    expect(lines.map((l) => l.sign)).toEqual(['-', '+']);
    expect(lines.map(text)).toEqual(['low = mid', 'low = mid + 1']);
    expect(changed(lines[0] as DiffLine)).toBe('');
    expect(changed(lines[1] as DiffLine)).toBe(' + 1');
  });

  it('marks removed words on the old side', () => {
    const [before, after] = editDiff('while low <= high:', 'while low < high:');
    // Punctuation is its own token: only the '=' of '<=' went.
    expect(changed(before as DiffLine)).toBe('=');
    expect(changed(after as DiffLine)).toBe('');
    expect(text(after as DiffLine)).toBe('while low < high:');
  });

  it('keeps unchanged lines once and splits a multi-line block into lines', () => {
    const lines = editDiff('a = 1\nb = 2\nc = 3\n', 'a = 1\nb = 20\nc = 3\n');
    expect(lines.map((l) => `${l.sign}${text(l)}`)).toEqual([' a = 1', '-b = 2', '+b = 20', ' c = 3']);
  });

  it('shows pure insertions and deletions', () => {
    expect(editDiff('', 'x = 1\n').map((l) => `${l.sign}${text(l)}`)).toEqual(['+x = 1']);
    expect(editDiff('x = 1\ny = 2\n', 'x = 1\n').map((l) => `${l.sign}${text(l)}`)).toEqual([' x = 1', '-y = 2']);
  });

  it('keeps empty lines and markup as text', () => {
    const lines = editDiff('<b>\n\nx', '<i>\n\nx');
    expect(lines.map((l) => `${l.sign}${text(l)}`)).toEqual(['-<b>', '+<i>', ' ', ' x']);
  });
});
