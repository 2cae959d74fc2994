import { createContext, useContext } from 'react';

/**
 * What a search is looking for, marked wherever a rollout opened from its results shows text (StepsPage
 * provides it from the URL's `q`). Empty outside a search: nothing is marked.
 */
export const SearchMarks = createContext<readonly RegExp[]>([]);

export function useSearchMarks(): readonly RegExp[] {
  return useContext(SearchMarks);
}

/** More marks than this in one text are not drawn: a one-letter search over a 100k-character log. */
const MAX_MARKS = 500;

/** The marked ranges of a text: every match of every regex, merged where they overlap, in order. */
export function markRanges(text: string, regexes: readonly RegExp[]): [number, number][] {
  const found: [number, number][] = [];
  for (const source of regexes) {
    const re = new RegExp(source.source, source.flags.includes('g') ? source.flags : `${source.flags}g`);
    for (let m = re.exec(text); m !== null && found.length < MAX_MARKS; m = re.exec(text)) {
      if (m[0] === '') {
        re.lastIndex++;
        continue;
      }
      found.push([m.index, m.index + m[0].length]);
    }
  }
  found.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of found) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** Pieces of `text` (which starts at `offset` of the whole) cut at the ranges; odd pieces are marked. */
export function cutAtMarks(text: string, offset: number, ranges: readonly [number, number][]): string[] {
  const pieces: string[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    const s = Math.max(0, start - offset);
    const e = Math.min(text.length, end - offset);
    if (e <= 0 || s >= text.length || e <= s) continue;
    if (s < at) continue;
    pieces.push(text.slice(at, s), text.slice(s, e));
    at = e;
  }
  pieces.push(text.slice(at));
  return pieces;
}
