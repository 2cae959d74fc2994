export type { CompactRollout } from './compact';
export { compactRollout, expandRollout } from './compact';
export type { Decoder } from './decode';
export { isQwenTokenizer, makeDecoder, qwenTokenizerOptions, useDecoder } from './decode';
export { lintReportOptions, loadKey, useLintReport } from './lintReportQuery';
export type { LintSourcesOptions, LoadProgress } from './lintSources';
export { lintSources } from './lintSources';
export type { LoadedFile, LoadResult, PendingLine, ReadOptions } from './loadState';
export { LoadState } from './loadState';
export { useLoadProgress } from './progress';
export type { ParsedReviews, Review, ReviewDb, ReviewKey, ReviewLineError, ReviewVerdict, StoredReviews } from './reviews';
export {
  contentDigest,
  contentDigestOptions,
  digestStream,
  isReviewVerdict,
  memoryReviewDb,
  parseReviewsJsonl,
  REVIEW_VERDICTS,
  reviewDb,
  reviewKey,
  reviewsOptions,
  reviewsToJsonl,
  useContentDigest,
} from './reviews';
export type { ServedFile } from './served';
export { isServedSource, servedFilesOptions, servedUrl, useServedFiles } from './served';
export type { LoadSource } from './sources';
export { fileSource, LoadError, lastPathSegment, sourceKey, urlSource } from './sources';
export { useLiveFollow } from './useLiveFollow';
export { prewarmParseWorker } from './worker/client';
