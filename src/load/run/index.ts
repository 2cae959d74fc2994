export { RangeReader } from './rangeRead';
export { appendShard, NO_STEP, RunColumns } from './runColumns';
export type { StepRange } from './runDataset';
export { rowsInRange, runDataset } from './runDataset';
export type { RunSnapshot } from './runIndex';
export { manifestUrlOf, readRun, sourceUrl } from './runIndex';
export type { RunState } from './runSource';
export { RunSource, runSource } from './runSource';
