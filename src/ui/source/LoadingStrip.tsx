import { plural } from '../../analysis';
import { type LoadSource, loadKey, useLoadProgress } from '../../load';
import { formatBytes } from '../shared/format';
import { ProgressBar } from './ProgressBar';
import './source.css';

/** A thin bar over the run list while rows are still arriving: the list is usable before the load ends. */
export function LoadingStrip({ sources }: { sources: readonly LoadSource[] }) {
  const progress = useLoadProgress(loadKey(sources));
  if (!progress) return null;
  const total = progress.totalBytes;
  const percent = total ? Math.min(100, Math.round((progress.bytesRead / total) * 100)) : null;
  return (
    <div className="loading-strip" role="status" aria-label="Still reading">
      <ProgressBar percent={percent} thin />
      <span className="loading-strip__text">
        Still reading {progress.current}: {formatBytes(progress.bytesRead)}
        {total !== null && ` of ${formatBytes(total)}`} · {plural(progress.rollouts, 'rollout')} so far
      </span>
    </div>
  );
}
