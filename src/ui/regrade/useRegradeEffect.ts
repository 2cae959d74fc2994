import { useMemo } from 'react';
import { type RegradeEffect, regradeEffect } from '../../analysis';
import type { RegradeRow } from '../../format';
import { useRolloutRows, useSelection, useTrainingSteps } from '../../state';

/** One grader's effect on the loaded rollouts, under the URL's advantage mode; computed once per change. */
export function useRegradeEffect(rows: readonly RegradeRow[], grader: string): RegradeEffect {
  const rollouts = useRolloutRows();
  const steps = useTrainingSteps();
  const { drGrpo } = useSelection();
  const mine = useMemo(() => rows.filter((r) => r.grader === grader), [rows, grader]);
  return useMemo(
    () => regradeEffect({ rollouts, trainingSteps: steps, rows: mine, normalizeStd: !drGrpo }),
    [rollouts, steps, mine, drGrpo],
  );
}
