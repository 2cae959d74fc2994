export type { DetectSample, FieldMapping, FormatId, LineParser, LineParserOptions, ParseOptions, WholeFileResult } from './adapters';
export {
  createLineParser,
  detectFormat,
  FORMAT_IDS,
  FORMAT_LABELS,
  isFormatId,
  MappingError,
  parseFieldMapping,
  parseWholeFile,
  validateFieldMapping,
  WHOLE_FILE_LIMIT,
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
  transcriptMessageSchema,
} from './additions';
export type { LineResult, LineRun, LoadedRollout, ParseError } from './jsonl';
export { concat, forEachLine, JsonlParser, parseJsonl, parseLine } from './jsonl';
export type { ParsedReviews, Review, ReviewKey, ReviewLineError, ReviewVerdict } from './reviews';
export { isReviewVerdict, parseReviewsJsonl, REVIEW_VERDICTS, reviewKey, reviewsToJsonl } from './reviews';
export type { Grading, Rollout, Segment, Step, Training } from './schema';
export { rolloutSchema, segmentSchema, stepSchema } from './schema';
export type { ServedFile } from './served';
export { INODE_HEADER, parseInodeHeader, parseServedList } from './served';
export type { ParsedCall } from './toolCall';
export { parseToolCall } from './toolCall';
