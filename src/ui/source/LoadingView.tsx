import { plural } from '../../analysis';
import { type LoadSource, loadKey, useLoadProgress } from '../../load';
import { formatBytes } from '../shared/format';
import { ProgressBar } from './ProgressBar';
import './source.css';

/** Progress of the load in flight: bytes read of the total, and what has been found so far. */
export function LoadingView({ sources }: { sources: readonly LoadSource[] }) {
  const progress = useLoadProgress(loadKey(sources));
  const total = progress?.totalBytes ?? null;
  const read = progress?.bytesRead ?? 0;
  const percent = total ? Math.min(100, Math.round((read / total) * 100)) : null;
  const name = progress?.current || sources.map((s) => s.name).join(', ');
  return (
    <div className="placeholder">
      <h2>Reading {name}…</h2>
      <ProgressBar percent={percent} />
      <p className="progress__text">
        {formatBytes(read)}
        {total !== null && ` of ${formatBytes(total)}`}
        {progress && ` · ${plural(progress.rollouts, 'rollout')}`}
        {progress && progress.parseErrors > 0 && ` · ${plural(progress.parseErrors, 'bad line')}`}
      </p>
    </div>
  );
}
