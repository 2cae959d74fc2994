import { formatCount, type RolloutSummary } from '../../analysis';
import { readWith, useReadOptions } from '../../state';
import './unknownStatus.css';

/**
 * Why rollouts with no recorded termination are not in the signal, and the explicit, URL-held choice to
 * count them as finished for group statistics (docs/formats.md, "Rollouts with no recorded status").
 * Shown on the run list and the groups page whenever such rollouts are loaded; never applied silently.
 */
export function UnknownStatusNotice({ rollouts }: { rollouts: readonly RolloutSummary[] }) {
  const { unknownAsFinished } = useReadOptions();
  const unknown = rollouts.reduce((n, r) => n + (r.termination === 'unknown' ? 1 : 0), 0);
  if (unknown === 0) return null;
  const all = unknown === rollouts.length;
  const what = `${all ? (unknown === 1 ? 'The rollout records' : `All ${formatCount(unknown)} rollouts record`) : `${formatCount(unknown)} of ${formatCount(rollouts.length)} rollouts record`} no termination status`;
  return (
    <div
      className={`unknown-status${unknownAsFinished ? ' unknown-status--on' : ''}`}
      role="status"
      aria-label="Rollouts with no recorded status"
    >
      <span>
        {unknownAsFinished
          ? `${what}; you chose to count ${unknown === 1 ? 'it' : 'them'} as finished for the signal and group statistics (the files do not say so).`
          : `${what} (termination “unknown”), so ${unknown === 1 ? 'it is' : 'they are'} left out of the signal${all ? ' and no group has statistics' : ''}. Trajscope does not guess why a run ended.`}
      </span>
      <label>
        <input type="checkbox" checked={unknownAsFinished} onChange={(e) => readWith({ unknownAsFinished: e.target.checked })} />
        Count rollouts with no recorded status as finished
      </label>
    </div>
  );
}
