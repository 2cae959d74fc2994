import { useMemo } from 'react';
import { cutAtMarks, markRanges, useSearchMarks } from './marks';

/** Text with the current search's matches in <mark>: text nodes only, never HTML. */
export function Marked({ text }: { text: string }) {
  const regexes = useSearchMarks();
  const pieces = useMemo(() => (regexes.length === 0 ? null : cutAtMarks(text, 0, markRanges(text, regexes))), [text, regexes]);
  return pieces === null || pieces.length === 1 ? text : <MarkedPieces pieces={pieces} />;
}

/** Pieces from `cutAtMarks`: the odd ones marked. */
export function MarkedPieces({ pieces }: { pieces: readonly string[] }) {
  return (
    <>
      {pieces.map((p, i) =>
        i % 2 === 1 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: pieces of a fixed text
          <mark key={i} className="search-mark">
            {p}
          </mark>
        ) : (
          p
        ),
      )}
    </>
  );
}
