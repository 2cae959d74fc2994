export type { Dataset, DatasetCounts, DatasetFeed } from './dataset/dataset';
export { loadedDataset, loadedFilesFeed } from './dataset/loadedDataset';
export { readProgress, subscribeReadProgress } from './dataset/sliced';
export type { Decoder } from './decode';
export { isQwenTokenizer, qwenTokenizerOptions, useDecoder } from './decode';
export { lintReportOptions, loadKey, useLintReport } from './lintReportQuery';
export type { LoadResult, ReadOptions } from './loadState';
export { LoadState } from './loadState';
export { useLoadProgress } from './progress';
export type { LoadedQueue } from './queue';
export { useOpenQueueFile, useReviewQueue, useReviewsByReviewer } from './queue';
export { PREVIEW_BYTES, readHead } from './readHead';
export type { LoadedRegrade } from './regrade';
export { useOpenRegradeFile, useRegrade } from './regrade';
export type { Review, ReviewDb, ReviewKey, ReviewLineError, ReviewVerdict, StoredReviews } from './reviews';
export {
  announceReviewChange,
  contentDigestOptions,
  onReviewChange,
  parseReviewsJsonl,
  REVIEW_LOG_PATH,
  REVIEW_VERDICTS,
  reviewDb,
  reviewKey,
  reviewsOptions,
  reviewsToJsonl,
  sameReview,
} from './reviews';
export type { RunSnapshot, RunState, StepRange } from './run';
export {
  checkOptionsOf,
  manifestRows,
  manifestUrlOf,
  preloadLineReading,
  RangeReader,
  RunColumns,
  RunSource,
  readRun,
  runDataset,
  runFailureModes,
  runSource,
  sourceUrl,
} from './run';
export {
  AUDIT_AT_ONCE_PARSED_STEPS,
  AUDIT_AT_ONCE_STEPS,
  HUGE_ROWS,
  isHugeRecord,
  PAGE_ALIGNED_ROWS,
  PAGE_TURNS,
} from './scale';
export type { SearchPlace, SearchProgress } from './search/searchClient';
export { startSearch } from './search/searchClient';
export type { ServedFile } from './served';
export { isServedSource, servedUrl, useServedFiles } from './served';
export { runInSlices } from './slices';
export { sourceRecordReader } from './sourceRecords';
export type { LoadSource } from './sources';
export { fileSource, LoadError, urlSource } from './sources';
export { useLiveFollow, useServedListFollow } from './useLiveFollow';
export { prewarmParseWorker } from './worker/client';
