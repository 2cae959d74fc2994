export { RangeReader } from './rangeRead';
export { RunColumns } from './runColumns';
export type { StepRange } from './runDataset';
export { checkOptionsOf, preloadLineReading, runDataset } from './runDataset';
export type { RunSnapshot } from './runIndex';
export { manifestRows, manifestUrlOf, readRun, sourceUrl } from './runIndex';
export { runFailureModes } from './runModes';
export type { RunState } from './runSource';
export { RunSource, runSource } from './runSource';
