export type { DetectSample, FormatId, LineParser, ParseOptions, WholeFileResult } from './adapters';
export { createLineParser, detectFormat, FORMAT_IDS, FORMAT_LABELS, isFormatId, parseWholeFile, WHOLE_FILE_LIMIT } from './adapters';
export type { LineResult, LoadedRollout, ParseError } from './jsonl';
export { JsonlParser, parseJsonl, parseLine } from './jsonl';
export type { ParsedReviews, Review, ReviewKey, ReviewLineError, ReviewVerdict } from './reviews';
export { isReviewVerdict, parseReviewsJsonl, REVIEW_VERDICTS, reviewKey, reviewsToJsonl } from './reviews';
export type { Grading, Rollout, Segment, Step, Training, TranscriptMessage } from './schema';
export { rolloutSchema, segmentSchema, stepSchema, transcriptMessageSchema } from './schema';
