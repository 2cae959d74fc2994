export { FORMAT_LABELS, isTrajectoryFileName, TRAJECTORY_EXTENSIONS } from './formatInfo';
export type { LineParser } from './lineParser';
export { createLineParser } from './lineParser';
export type { FieldMapping } from './mapping/schema';
export { MappingError, parseFieldMapping } from './mapping/schema';
export { starterMapping } from './mapping/starter';
export { mappingOfInferred } from './structural/inferredMapping';
export type { FormatId } from './types';
export { FORMAT_IDS, isFormatId } from './types';
