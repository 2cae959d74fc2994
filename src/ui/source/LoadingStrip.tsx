import { type LoadSource, loadKey, useLoadProgress } from '../../load';
import { formatBytes, plural } from '../shared/format';
import './source.css';

/** A thin bar over the run list while rows are still arriving: the list is usable before the load ends. */
export function LoadingStrip({ sources }: { sources: readonly LoadSource[] }) {
  const progress = useLoadProgress(loadKey(sources));
  if (!progress) return null;
  const total = progress.totalBytes;
  const percent = total ? Math.min(100, Math.round((progress.bytesRead / total) * 100)) : null;
  return (
    <div className="loading-strip" role="status" aria-label="Still reading">
      <div
        className="progress progress--thin"
        role="progressbar"
        aria-label="Reading"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
      >
        <div
          className={percent === null ? 'progress__bar progress__bar--unknown' : 'progress__bar'}
          style={{ width: `${percent ?? 30}%` }}
        />
      </div>
      <span className="loading-strip__text">
        Still reading {progress.current}: {formatBytes(progress.bytesRead)}
        {total !== null && ` of ${formatBytes(total)}`} · {plural(progress.rollouts, 'rollout')} so far
      </span>
    </div>
  );
}
