import { diffLines, diffWordsWithSpace } from 'diff';

/** A run of one diff line; `changed` marks the words that differ from the other side. */
interface DiffPart {
  text: string;
  changed: boolean;
}

export interface DiffLine {
  sign: '-' | '+' | ' ';
  parts: DiffPart[];
}

/** Splits runs into lines at '\n', keeping each run's `changed`; a final newline ends the last line. */
function toLines(parts: DiffPart[], sign: DiffLine['sign']): DiffLine[] {
  const lines: DiffLine[] = [{ sign, parts: [] }];
  for (const p of parts) {
    p.text.split('\n').forEach((piece, i) => {
      if (i > 0) lines.push({ sign, parts: [] });
      if (piece !== '') lines[lines.length - 1]?.parts.push({ text: piece, changed: p.changed });
    });
  }
  const last = lines[lines.length - 1];
  if (lines.length > 1 && last && last.parts.length === 0) lines.pop();
  return lines;
}

/**
 * The `old` → `new` of an edit as diff lines: unchanged lines once, then each changed block as its
 * old lines (-) and new lines (+), with the words that differ marked inside them.
 */
export function editDiff(oldText: string, newText: string): DiffLine[] {
  const changes = diffLines(oldText, newText);
  const out: DiffLine[] = [];
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i];
    if (!c) continue;
    const next = changes[i + 1];
    if (c.removed && next?.added) {
      const words = diffWordsWithSpace(c.value, next.value);
      const before = words.filter((w) => !w.added).map((w) => ({ text: w.value, changed: w.removed }));
      const after = words.filter((w) => !w.removed).map((w) => ({ text: w.value, changed: w.added }));
      out.push(...toLines(before, '-'), ...toLines(after, '+'));
      i++;
    } else if (c.removed) {
      out.push(...toLines([{ text: c.value, changed: false }], '-'));
    } else if (c.added) {
      out.push(...toLines([{ text: c.value, changed: false }], '+'));
    } else {
      out.push(...toLines([{ text: c.value, changed: false }], ' '));
    }
  }
  return out;
}
