import type { ReviewerProgress as Progress } from '../../analysis';
import type { QueueModel } from './useQueueModel';

/** Done / assigned for every reviewer the queue names. */
export function ReviewerProgress({
  progress,
  me,
  model,
}: {
  progress: readonly Progress[];
  me: string;
  model: Pick<QueueModel, 'status' | 'error' | 'shared'>;
}) {
  return (
    <section className="queue-card" aria-labelledby="queue-progress-title">
      <h3 id="queue-progress-title">Progress</h3>
      <table className="queue-progress">
        <thead>
          <tr>
            <th scope="col">Reviewer</th>
            <th scope="col">Done</th>
            <th scope="col" aria-label="Share done" />
          </tr>
        </thead>
        <tbody>
          {progress.map((p) => (
            <tr key={p.reviewer} aria-current={p.reviewer === me ? 'true' : undefined}>
              <th scope="row">
                {p.reviewer}
                {p.reviewer === me && <span className="faint"> (you)</span>}
              </th>
              <td className="queue-progress__count">
                {p.done} / {p.assigned}
              </td>
              <td>
                <meter
                  className="queue-progress__bar"
                  min={0}
                  max={Math.max(1, p.assigned)}
                  value={p.done}
                  aria-label={`${p.reviewer}: ${p.done} of ${p.assigned}`}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className={model.status === 'error' ? 'queue-error queue-card__note' : 'faint queue-card__note'} role="status">
        {model.status === 'error'
          ? `Reviews are unavailable: ${model.error}`
          : model.status !== 'ready'
            ? 'Reading the reviews…'
            : model.shared
              ? 'Reviews are kept in the run: this is everyone’s progress, as each review is saved.'
              : 'Reviews are kept in this browser: progress counts the reviews made here (export and import them to combine).'}
      </p>
    </section>
  );
}
