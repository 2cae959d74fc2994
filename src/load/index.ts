export type { Decoder } from './decode';
export { isQwenTokenizer, makeDecoder, qwenTokenizerOptions, useDecoder } from './decode';
export { lintReportOptions, loadKey, useLintReport } from './lintReportQuery';
export type { LintSourcesOptions, LoadedFile, LoadProgress, LoadResult } from './lintSources';
export { lintSources } from './lintSources';
export { useLoadProgress } from './progress';
export type { LoadSource } from './sources';
export { fileSource, LoadError, lastPathSegment, sourceKey, urlSource } from './sources';
