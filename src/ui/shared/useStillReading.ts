import { loadKey, useLoadProgress } from '../../load';
import { useReadOptions, useRun, useSources } from '../../state';

/**
 * The data is still being read (the files' load, a run's shards): a selection made now is not the whole
 * one, and counts shown now are so far (the export, the summary's sizes, the problems' caption).
 */
export function useStillReading(): boolean {
  const run = useRun();
  const { sources } = useSources();
  const { read } = useReadOptions();
  const progress = useLoadProgress(loadKey(sources, read));
  return run ? run.state.loading : progress !== null;
}
