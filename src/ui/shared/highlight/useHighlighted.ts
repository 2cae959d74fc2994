import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type CodeLines, HIGHLIGHT_LIMIT, highlighterOptions } from './highlighter';
import type { HighlightLang } from './languages';

/** Highlighted lines of `code`, or null (no language, too long, or the highlighter is still loading). */
export function useHighlighted(code: string, lang: HighlightLang | null): CodeLines | null {
  const enabled = lang !== null && code.length <= HIGHLIGHT_LIMIT;
  const { data } = useQuery({ ...highlighterOptions(), enabled });
  return useMemo(() => (enabled && lang !== null && data ? data.tokenize(code, lang) : null), [enabled, lang, data, code]);
}
