import { useMemo } from 'react';
import { settled } from '../../analysis';
import { usePass } from '../shared/usePass';
import { measureRestPass, measureTokens, type TokenCells } from './layout';

/**
 * Tokens measured at once past the first one shown: more than a screen of rows holds (40 chips a row at
 * most), so the first paint has its rows and the scroll to the selected token its row.
 */
export const FIRST_TOKENS = 4096;
/** A slice of the rest's measuring, in ms: short enough never to hold back a frame by much. */
const REST_SLICE_MS = 4;

/**
 * The chips' cells of a sequence: at once from its start to FIRST_TOKENS past `shownFirst` (the selected
 * token, when the sequence is first shown), the whole sequence in short slices after the first paint.
 * Opening a 100k-token rollout measured and cut all its rows before anything was drawn, ~10 ms of its
 * 40-60 here on the page's thread, for the one screen of rows it shows (issue 25). Until the rest is
 * measured the grid has only the first rows, and its scroll bar is as long as those.
 */
export function useTokenCells(ids: readonly number[], piece: (id: number) => string | null, shownFirst: number | null): TokenCells {
  // biome-ignore lint/correctness/useExhaustiveDependencies: where the sequence is first shown; a later selection must not measure it again.
  const first = useMemo(() => measureTokens(ids, piece, (shownFirst ?? 0) + FIRST_TOKENS), [ids, piece]);
  // The grid's new rows render in a transition (usePass): a click or a key then is not kept waiting.
  const { value: whole } = usePass(
    () => (first.complete ? settled(first) : measureRestPass(ids, piece, first)),
    !first.complete,
    [ids, piece, first],
    { afterPaint: true, sliceMs: REST_SLICE_MS, progress: false },
  );
  return whole ?? first;
}
