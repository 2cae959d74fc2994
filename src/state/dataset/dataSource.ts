import { createContext, createElement, type ReactNode, useContext } from 'react';
import type { DatasetFeed, LoadSource, RunState, ServedFile, StepRange } from '../../load';
import { useSelection } from '../hooks';
import { useRunSource } from '../run';
import { DatasetProvider } from './datasetContext';
import { useFilesSource } from './useFilesSource';

/**
 * How far the source has got: asking whether `trajscope view` serves files (pending), an empty served
 * folder (waiting), local files this page no longer holds (missing), a read that failed, the first rows
 * not read yet (loading), or rows to show (ready).
 */
export type SourceStatus = 'pending' | 'waiting' | 'missing' | 'failed' | 'loading' | 'ready';

/** What the app bar says is open. */
interface SourceHeader {
  sources: readonly LoadSource[];
  isDemo: boolean;
  /** The committed demo training run is open (as its files; the run's own header knows its index). */
  isDemoRun: boolean;
  /** Files offered by `trajscope view`, or null on a plain static host. */
  served: ServedFile[] | null;
  /** A run opened from its index: its name (the URL's `run=`). */
  run?: string;
}

interface SourceCommon {
  /** The data the views read (through the hooks of src/state/dataset). */
  feed: DatasetFeed;
  status: SourceStatus;
  /** Rows have been read (more may come, or a later read may have failed): search and problems show. */
  hasData: boolean;
  header: SourceHeader;
}

/** Files read into the page: the URL's sources, the embedded demo, or what `trajscope view` serves. */
export interface FilesDataSource extends SourceCommon {
  kind: 'files';
  sources: readonly LoadSource[];
  /** Local files the URL names but this page no longer holds. */
  missing: readonly string[];
  isDemo: boolean;
  /** Why the read failed (status `failed`), else null. */
  error: Error | null;
  /** The files are being read (again) while rows already show. */
  refreshing: boolean;
}

/** A run read from its index (`?run=`). */
export interface RunDataSource extends SourceCommon {
  kind: 'run';
  /** How the index is read: building, loading, failed, ranges ignored (the run banner says). */
  state: RunState;
  /** The training steps the URL selects; null for the whole run. */
  steps: StepRange | null;
  /** The run's rollouts when too many to list at once and no steps are chosen (pages other than the run's); else null. */
  tooManyToList: number | null;
}

/** What the page has open: files or a run, each with its feed, status and header. */
export type DataSource = FilesDataSource | RunDataSource;

const SourceContext = createContext<DataSource | null>(null);

function Provide({ source, children }: { source: DataSource; children: ReactNode }) {
  return createElement(SourceContext.Provider, { value: source }, createElement(DatasetProvider, { feed: source.feed, children }));
}

// Each kind's hooks run only while that kind is open: files are never read (nor the served list asked
// for) under a run, and a run is never polled under files.
function FilesProvider({ children }: { children: ReactNode }) {
  return createElement(Provide, { source: useFilesSource(), children });
}

function RunProvider({ run, children }: { run: string; children: ReactNode }) {
  return createElement(Provide, { source: useRunSource(run), children });
}

/**
 * Opens what the URL names, files or a run, and gives the pages below it its data (one DatasetFeed) and
 * the shell its source (`useDataSource`). The app places it once, at the root.
 */
export function DataSourceProvider({ children }: { children: ReactNode }) {
  const { run } = useSelection();
  return run === null ? createElement(FilesProvider, { children }) : createElement(RunProvider, { run, children });
}

/** The open source, for the shell (views read the dataset's hooks instead). */
export function useDataSource(): DataSource {
  const source = useContext(SourceContext);
  if (source === null) throw new Error('useDataSource is called outside DataSourceProvider');
  return source;
}
