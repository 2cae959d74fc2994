import { formatCount } from '../format';
import { formatRange, type RunDataSource, toRun, type View } from '../state';
import { RunBanner } from './run/RunBanner';
import { Notice } from './shared/Notice';

/*
 * The shell's parts that only a run opened from its index has (App.tsx places them by the source's kind).
 * The run page itself is a route (routes.tsx), kept mounted by the shell.
 */

/** Above the page: how the index is read (RunBanner), and which training steps the other pages show. */
export function RunNotices({ source, view }: { source: RunDataSource; view: View }) {
  const { state, steps, hasData } = source;
  return (
    <>
      <RunBanner state={state} />
      {view !== 'run' && steps && hasData && (
        <Notice>
          Training step{steps.from === steps.to ? '' : 's'} {formatRange(steps)} of the run.
        </Notice>
      )}
    </>
  );
}

/** In place of a page that lists rollouts, when the run has too many to list with no steps chosen. */
export function TooManyToList({ rows }: { rows: number }) {
  return (
    <div className="placeholder">
      <h2>{formatCount(rows)} rollouts</h2>
      <p>Too many to list at once: choose training steps on the run page, then open their rollouts.</p>
      <button type="button" onClick={toRun}>
        To the run page
      </button>
    </div>
  );
}
