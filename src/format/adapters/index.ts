export { convertValue } from './convertValue';
export type { DetectSample } from './detect';
export { detectFormat } from './detect';
export type { LineParser, LineParserOptions } from './lineParser';
export { createLineParser, WHOLE_FILE_LIMIT } from './lineParser';
export type { ConvertContext, FormatId, Termination } from './types';
export { FORMAT_IDS, FORMAT_LABELS, isFormatId } from './types';
export type { ParseOptions, WholeFileResult } from './wholeFile';
export { parseWholeFile } from './wholeFile';
