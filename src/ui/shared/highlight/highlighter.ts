import type { HighlightLang } from './languages';

/** One highlighted run of text; `fontStyle` is shiki's bit set (1 italic, 2 bold, 4 underline). */
export interface CodeToken {
  content: string;
  color: string | undefined;
  fontStyle: number;
}

/** Lines of tokens: joining each line's contents, and the lines with '\n', gives back the code. */
export type CodeLines = CodeToken[][];

export interface Highlighter {
  tokenize(code: string, lang: HighlightLang): CodeLines;
}

/**
 * Past this many characters code is shown plain: the JavaScript regex engine tokenizes a few hundred
 * KB per second, and a multi-MB observation must not hold the highlight worker, and the blocks queued
 * behind it, for seconds.
 */
export const HIGHLIGHT_LIMIT = 60_000;

const THEME = 'github-light';

/**
 * Loads shiki's fine-grained core with the JavaScript regex engine (no WASM), three grammars and one
 * light theme. Every part is a dynamic import, so none of it is in the initial bundle. In a browser it
 * runs in the highlight worker (highlightQueue.ts): a grammar's first use compiles its patterns, 58 ms
 * of one task for Python on the page's thread.
 */
export async function loadHighlighter(): Promise<Highlighter> {
  const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
    import('shiki/core'),
    import('shiki/engine/javascript'),
  ]);
  const core = await createHighlighterCore({
    themes: [import('shiki/themes/github-light.mjs')],
    langs: [import('shiki/langs/python.mjs'), import('shiki/langs/json.mjs'), import('shiki/langs/diff.mjs')],
    engine: createJavaScriptRegexEngine(),
  });
  return {
    // Tokens, never HTML: the caller renders each as a text node, so file content cannot become markup.
    tokenize: (code, lang) =>
      core
        .codeToTokensBase(code, { lang, theme: THEME })
        .map((line) => line.map((t) => ({ content: t.content, color: t.color, fontStyle: t.fontStyle ?? 0 }))),
  };
}
