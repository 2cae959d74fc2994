export { describeDirectory, detectTraceDirectory } from './detect';
export type { FileBytes, ReadFile, TraceDirectory } from './layouts';
export { LAYOUT_INFO } from './layouts';
export { readTraceDirectory } from './read';
