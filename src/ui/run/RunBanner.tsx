import { formatCount } from '../../format';
import { manifestRows, type RunState } from '../../load';
import { Notice } from '../shared/Notice';

/** What a person must know about how the run is read: it failed, it is still being read, or ranges are ignored. */
export function RunBanner({ state }: { state: RunState }) {
  return (
    <>
      {state.error && (
        <Notice tone="warning">
          The run index could not be read: {state.error}
          {state.snapshot ? ' (showing what was read before)' : ''}
        </Notice>
      )}
      {state.building && <Notice>Building the run index (trajscope view does it once; then only what changes)…</Notice>}
      {state.loading && state.snapshot && (
        <Notice>
          Reading the run index: {formatCount(state.snapshot.rows)} of {formatCount(manifestRows(state.snapshot.manifest))} rollouts so far;
          the charts show those and grow as the rest arrive…
        </Notice>
      )}
      {state.rangesIgnored && (
        <Notice tone="warning">
          This host ignores HTTP range requests (Python's <code>http.server</code> does): each rollout opened costs a download of its whole
          file ({state.rangesIgnored}), kept for the next one. Serve the run with <code>trajscope view</code>, nginx or a bucket to read
          only the rollout's bytes.
        </Notice>
      )}
    </>
  );
}
