export { CodeBlock } from './CodeBlock';
export type { CodeLines, CodeToken, Highlighter } from './highlighter';
export { HIGHLIGHT_LIMIT, highlighterOptions, loadHighlighter } from './highlighter';
export type { HighlightLang } from './languages';
export { languageForPath, looksLikeDiff } from './languages';
export { useHighlighted } from './useHighlighted';
