/** A determinate bar when the total is known, an indeterminate one when it is not. */
export function ProgressBar({ percent, thin = false }: { percent: number | null; thin?: boolean }) {
  return (
    <div
      className={thin ? 'progress progress--thin' : 'progress'}
      role="progressbar"
      aria-label="Reading"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
    >
      {percent === null ? (
        <div className="progress__bar progress__bar--unknown" style={{ width: '30%' }} />
      ) : (
        <div className="progress__bar" style={{ transform: `scaleX(${percent / 100})` }} />
      )}
    </div>
  );
}
