export { CodeBlock } from './CodeBlock';

export type { HighlightLang } from './languages';
export { languageForPath, looksLikeDiff } from './languages';
