import { useEffect, useState } from 'react';
import type { FailureModesResult } from '../analysis';
import { runFailureModes } from '../load';
import { useSelection } from './hooks';
import { useRun } from './run';

type RunModes = { result: FailureModesResult | null; error: string | null };

/**
 * The failure modes of the open run (its rows in the URL's training steps, every row without a range),
 * from the index's columns, counted off the critical path (`runFailureModes` yields between slices);
 * null when files are open. Recounted when more rows arrive or the range changes.
 */
export function useRunFailureModes(): RunModes | null {
  const run = useRun();
  const { steps } = useSelection();
  const snapshot = run?.state.snapshot ?? null;
  const [modes, setModes] = useState<RunModes>({ result: null, error: null });
  const from = steps?.from ?? null;
  const to = steps?.to ?? null;
  useEffect(() => {
    if (snapshot === null) return;
    const stop = new AbortController();
    runFailureModes(snapshot, from === null || to === null ? null : { from, to }, stop.signal).then(
      (result) => setModes({ result, error: null }),
      (e: unknown) => {
        if (!stop.signal.aborted) setModes({ result: null, error: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => stop.abort();
  }, [snapshot, from, to]);
  return run === null ? null : modes;
}
