export type { FieldMapping, FormatId, LineParser } from './adapters';
export {
  createLineParser,
  FORMAT_IDS,
  FORMAT_LABELS,
  isFormatId,
  isTrajectoryFileName,
  MappingError,
  mappingOfInferred,
  parseFieldMapping,
  starterMapping,
  TRAJECTORY_EXTENSIONS,
} from './adapters';
export type { TranscriptMessage } from './additions';
export {
  callIdIsLocator,
  contextMessages,
  logprobsRecorded,
  recordTranscript,
  segmentCallIds,
  segmentText,
  transcriptIndex,
} from './additions';
export { formatCount, formatStatistic, plural } from './counting';
export type { FileBytes, ReadFile, TraceDirectory } from './directories';
export { describeDirectory, detectTraceDirectory, LAYOUT_INFO, readTraceDirectory } from './directories';
export { stableStringify } from './json';
export type { LineResult, LineRun, LoadedRollout, ParseError } from './jsonl';
export { concat, DEFAULT_MAX_LINE_BYTES, decodeLine, forEachLine, JsonlParser, parseLine } from './jsonl';
export { lazily } from './lazily';
/** The line readers (createLineParser, parseLine) as a chunk of their own, for the page's thread (lineReading.ts). */
export const lineReading = () => import('./lineReading');
export type LineReading = Awaited<ReturnType<typeof lineReading>>;
export { sharedPrefixes } from './prefixes';
export type { ReviewQueue, ReviewQueueItem, Stratum } from './queue/queueFile';
export {
  MAX_QUEUE_ITEMS,
  parseReviewQueue,
  REVIEW_QUEUE_PATH,
  REVIEW_QUEUE_VERSION,
  reviewerNameProblem,
  STRATA,
} from './queue/queueFile';
export type { Bytes, Gunzip, Sha256, WindowsDigest } from './read';
export { checkWindows, chunksOf, decompressIfGzip, LineSpans, readContent, StreamWindows, windowsDigest } from './read';
export type { ReadOption, ReadOptionName, ReadOptions } from './readOptions';
export { DEFAULT_DRIFT_THRESHOLD, DEFAULT_IS_CAP, READ_OPTIONS, ReadOptionError, wholeOption } from './readOptions';
export type { RegradeRow } from './regrade/regradeTable';
export {
  parseRegradeJournal,
  REGRADE_DIR,
  REGRADE_JOURNAL_FILE,
  REGRADE_TABLE_FILE,
  regradeRowKey,
  regradeRowOf,
  regradeRowsOf,
} from './regrade/regradeTable';
export type { Review, ReviewKey, ReviewLineError, ReviewLogEntry, ReviewLogPage, ReviewVerdict } from './reviews';
export {
  foldReviewLog,
  isReviewEntryError,
  parseReviewLogPage,
  parseReviewsJsonl,
  REVIEW_LOG_PATH,
  REVIEW_VERDICTS,
  reviewKey,
  reviewsToJsonl,
  toReviewLogEntry,
} from './reviews';
export type { IndexRow } from './runIndex/columns';
export { encodeIndexShard } from './runIndex/columns';
export type { RunManifest } from './runIndex/manifest';
export { parseRunManifest } from './runIndex/manifest';
export type { ScanRule, StepMatch } from './scanRules';
export { parseScanRules, ScanRuleError } from './scanRules';
export type { Grading, Rollout, Segment, Step, Training, TrainingUpdate } from './schema';
export { v1Schema } from './schema';
export type { ServedFile } from './served';
export { INODE_HEADER, parseInodeHeader, parseServedList } from './served';
export type { NamedSource } from './sourceNames';
export { distinctNames } from './sourceNames';
export type { Termination } from './termination';
export { TERMINATIONS } from './termination';
export { parseToolCall } from './toolCall';
