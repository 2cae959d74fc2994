export type { LineParser } from './lineParser';
export { createLineParser } from './lineParser';
export type { FormatId } from './types';
export { FORMAT_IDS, FORMAT_LABELS, isFormatId } from './types';
