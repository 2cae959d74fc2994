import { useDeferredValue, useMemo, useState } from 'react';
import { type FailureModesResult, failureModesOfRows, formatCount, plural } from '../../analysis';
import { useRolloutKeys, useRolloutRows, useRunFailureModes, useTrainingSteps } from '../../state';
import { ModeRow } from './ModeRow';
import { ModesChart } from './ModesChart';
import './modes.css';

/** Modes listed before "Show more": a run rarely has more worth reading, and each row is a full card. */
const FIRST_SHOWN = 30;
/** Modes in the first paint, before the chart and the rest of the list. */
const FIRST_PAINTED = 8;

/**
 * The Failure modes page (issue 26): every rollout that was excluded or not fully rewarded, grouped by the
 * evidence of how it failed (docs/failure-modes.md), ranked by count, with each mode's share over training.
 * The same analysis `trajscope modes` prints: from the loaded rows for files, from the index's columns for a
 * run (a million rows without making a summary of each).
 */
export function FailureModesView() {
  const run = useRunFailureModes();
  if (run === null) return <FileModes />;
  if (run.error !== null)
    return (
      <div className="placeholder">
        <h2>Failure modes could not be counted</h2>
        <p>{run.error}</p>
      </div>
    );
  if (run.result === null) return <div className="placeholder" aria-busy="true" />;
  return <ModesBody result={run.result} />;
}

function FileModes() {
  const rows = useRolloutRows();
  const keys = useRolloutKeys();
  const steps = useTrainingSteps();
  const result = useMemo(() => failureModesOfRows(rows, keys, steps), [rows, keys, steps]);
  return <ModesBody result={result} />;
}

/** Whether the result has a chart (two numbered steps or more): room is kept for it while it draws. */
const charted = (result: FailureModesResult) => (result.modes[0]?.steps.filter((s) => s.step !== null).length ?? 0) >= 2;

function ModesBody({ result }: { result: FailureModesResult }) {
  const [focus, setFocus] = useState<number | null>(null);
  const [shown, setShown] = useState(FIRST_SHOWN);
  // The first rows paint at once; the chart and the rest of the list follow in a later render, so no one
  // task draws all of it (npm run bench: the page of a 1,000,000-row run had a 70 ms task, the target is 50).
  const chart = useDeferredValue<FailureModesResult | null>(result, null);
  // The rest of the list after the chart: three renders, none of them the whole page.
  const listed = useDeferredValue(chart ? shown : FIRST_PAINTED, FIRST_PAINTED);

  if (result.failures === 0) {
    return (
      <div className="placeholder">
        <h2>No failures</h2>
        <p>
          Every one of the {plural(result.rollouts, 'rollout')} is in the policy signal with a full reward, so there is no failure mode to
          show.
        </p>
      </div>
    );
  }
  return (
    <div className="modes">
      <header className="modes__head">
        <h2>Failure modes</h2>
        <p>
          {formatCount(result.failures)} of {plural(result.rollouts, 'rollout')} failed or were excluded (
          {Math.round((result.failures / result.rollouts) * 100)}%), in {plural(result.modes.length, 'mode')}. A mode is how the rollout
          ended and the last failure it did not recover from, its values masked; near ones are merged (docs/failure-modes.md). The same
          analysis as <code>trajscope modes</code>.
        </p>
      </header>
      {chart ? (
        <ModesChart result={chart} focus={focus} />
      ) : (
        charted(result) && <div className="modes-chart modes-chart--pending" aria-busy="true" />
      )}
      <ol className="modes__list">
        {result.modes.slice(0, listed).map((m, i) => (
          <ModeRow key={m.name} mode={m} rank={i} onFocus={setFocus} />
        ))}
      </ol>
      {result.modes.length > shown && (
        <button type="button" className="modes__more" onClick={() => setShown(result.modes.length)}>
          Show the other {plural(result.modes.length - shown, 'mode')}
        </button>
      )}
    </div>
  );
}
