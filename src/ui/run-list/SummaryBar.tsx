import { formatCount, plural } from '../../analysis';
import { useDatasetCounts, useLoadedFiles } from '../../state';
import { formatBytes } from '../shared/format';
import { useStillReading } from '../shared/useStillReading';

/** Totals of the loaded data: size, lines, rollouts, findings, and rollouts by termination. */
export function SummaryBar() {
  const summary = useDatasetCounts();
  const files = useLoadedFiles();
  // A file still being read: its bytes so far, not its size.
  const soFar = useStillReading() ? ' read so far' : '';
  const { terminations, inSignal, groupFindings } = summary;
  return (
    <section className="summary" aria-label="Summary">
      <div className="summary__group">
        {files.map((f) => (
          <span
            key={f.name}
            className="summary__file"
            title={`${f.name}: ${plural(f.lines, 'line')}, ${formatBytes(f.bytes)}${f.gzip ? ' gzip' : ''}${soFar}`}
          >
            <span className="mono">{f.name}</span>{' '}
            <span className="faint">
              {formatBytes(f.bytes)}
              {soFar}
            </span>
            {f.gzip && <span className="summary__tag">gzip</span>}
          </span>
        ))}
      </div>
      <div className="summary__group">
        <span>{plural(summary.lines, 'line')}</span>
        <span>
          <strong>{formatCount(summary.rollouts)}</strong> {summary.rollouts === 1 ? 'rollout' : 'rollouts'}
        </span>
        <span
          className={summary.errors > 0 ? 'count count--error' : 'faint'}
          title="Error findings of every rollout and group, and lines that did not load (those are listed under Problems)"
        >
          {plural(summary.errors, 'error')}
        </span>
        <span
          className={summary.warnings > 0 ? 'count count--warning' : 'faint'}
          title={
            groupFindings > 0
              ? `includes ${plural(groupFindings, 'group finding')}: on the Groups page, and in the detail of a rollout of the group`
              : undefined
          }
        >
          {plural(summary.warnings, 'warning')}
        </span>
      </div>
      {/* Rollouts by termination are the filter bar's chips, just below: here only the split they make. */}
      {terminations.length > 0 && (
        <div className="summary__group">
          <span className="faint" title="Rollouts whose termination puts them in the policy signal; the rest are excluded">
            {formatCount(inSignal)} in signal · {formatCount(summary.rollouts - inSignal)} excluded
          </span>
        </div>
      )}
    </section>
  );
}
