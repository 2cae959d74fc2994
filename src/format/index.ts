export type { LineResult, LoadedRollout, ParseError } from './jsonl';
export { JsonlParser, parseJsonl, parseLine } from './jsonl';
export type { Grading, Rollout, Segment, Step, Training } from './schema';
export { rolloutSchema, segmentSchema, stepSchema } from './schema';
