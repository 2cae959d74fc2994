import type { SearchMatch } from '../../analysis';
import type { FieldMapping } from '../../format';
import type { WorkerSource } from '../worker/protocol';
import type { SearchProgress } from './scanSources';

export type ToSearchWorker = { sources: WorkerSource[]; query: string; mapping?: FieldMapping };

export type FromSearchWorker =
  | { type: 'matches'; matches: SearchMatch[] }
  | { type: 'progress'; progress: SearchProgress }
  | { type: 'done'; records: number }
  | { type: 'error'; message: string };
