import { useMemo } from 'react';
import { processScoreRows } from '../../analysis';
import type { Rollout } from '../../format';
import { formatReward } from '../shared/format';

function value(v: number | null): string {
  return v === null ? '—' : formatReward(v);
}

/** Per-step process scores: each step's `process_reward` beside the grader's `process_scores` for it. */
export function ProcessScores({ record }: { record: Rollout }) {
  const rows = useMemo(() => processScoreRows(record), [record]);
  return (
    <section className="audit-card" aria-labelledby="audit-process-title">
      <h3 id="audit-process-title" className="audit-card__title">
        Process scores
      </h3>
      {rows.length === 0 ? (
        <p className="audit-empty">
          None recorded: no step has a process_reward and the grading has no process_scores. Only the terminal reward counts.
        </p>
      ) : (
        <table className="audit-table">
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col">Tool</th>
              <th scope="col">process_reward</th>
              <th scope="col">Grader’s process_scores</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.step ?? 'rollout'}>
                <td>{r.step === null ? <span className="faint">rollout</span> : r.step}</td>
                <td className="mono">{r.missingStep ? <span className="count--error">no such step</span> : (r.tool ?? '')}</td>
                <td className="num">{value(r.processReward)}</td>
                <td>
                  {r.scores.length === 0
                    ? '—'
                    : r.scores.map((s, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: scores may repeat a name; their order is their identity.
                        <span key={i} className="score-chip">
                          {s.name ?? 'unnamed'} <b>{value(s.value)}</b>
                        </span>
                      ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
