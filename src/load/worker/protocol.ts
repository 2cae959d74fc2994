import type { CheckOptions } from '../../analysis';
import type { CompactRollout } from '../compact';
import type { LineBlock, ProcessedLine } from '../lineBlocks';
import type { LoadProgress } from '../lintSources';
import type { ReadOptions } from '../loadState';
import type { LoadError } from '../sources';
import type { WireResult } from './wire';

/** A source the worker can open itself: a File (structured-cloneable) or an absolute URL. */
export type WorkerSource = { kind: 'file'; id: string; name: string; file: File } | { kind: 'url'; id: string; name: string; url: string };

export type ToWorker =
  | { type: 'load'; sources: WorkerSource[]; follow: boolean[]; driftThreshold?: number; memoryLimit?: number; read?: ReadOptions }
  /** New bytes of a followed source (read by the page with an HTTP range request). */
  | { type: 'append'; source: number; bytes: ArrayBuffer };

/**
 * Everything but the records (a huge rollout's findings packed), plus only the records that are new
 * since the last message (transferred).
 */
export interface WorkerSnapshot {
  result: WireResult;
  records: CompactRollout[];
}

export type FromWorker =
  | { type: 'progress'; progress: LoadProgress }
  | { type: 'snapshot'; snapshot: WorkerSnapshot; done: boolean }
  | {
      type: 'error';
      error:
        | { reason: LoadError['reason']; source: string; message: string }
        | { reason: 'aborted' | 'internal'; source: string; message: string };
    };

/** To a lines worker (a helper of the parse worker): one block of v1 lines to parse, check and compact. */
export interface ToLinesWorker {
  id: number;
  block: LineBlock;
  checks: CheckOptions;
}

export type FromLinesWorker = { id: number; lines: ProcessedLine[] } | { id: number; error: string };
