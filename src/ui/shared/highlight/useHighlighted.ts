import { useEffect, useState } from 'react';
import { type CodeLines, HIGHLIGHT_LIMIT } from './highlighter';
import { HIGHLIGHT } from './highlightQueue';
import type { HighlightLang } from './languages';

/**
 * Highlighted lines of `code`, or null: no language, too long, or not tokenized yet (the highlight
 * worker's turn for it; code seen before is coloured at once).
 */
export function useHighlighted(code: string, lang: HighlightLang | null): CodeLines | null {
  const wanted = lang !== null && code.length <= HIGHLIGHT_LIMIT ? lang : null;
  const known = wanted !== null ? HIGHLIGHT.now(code, wanted) : undefined;
  const [later, setLater] = useState<{ code: string; lang: HighlightLang; lines: CodeLines } | null>(null);
  const missing = wanted !== null && known === undefined;
  useEffect(() => {
    if (!missing || wanted === null) return;
    return HIGHLIGHT.later(code, wanted, (lines) => setLater({ code, lang: wanted, lines }));
  }, [missing, code, wanted]);
  if (known) return known;
  return later !== null && later.code === code && later.lang === wanted ? later.lines : null;
}
