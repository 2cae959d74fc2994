import { useMemo } from 'react';
import { type AuditSteps, plural, processScoreRows } from '../../analysis';
import type { Rollout } from '../../format';
import { formatReward } from '../shared/format';

/** Rows the table shows; past them it says how many more and their range (a rollout may score a million steps). */
const SHOWN_ROWS = 50;

function value(v: number | null): string {
  return v === null ? '—' : formatReward(v);
}

/** Per-step process scores: each step's `process_reward` beside the grader's `process_scores` for it. */
export function ProcessScores({ record, processRewards }: { record: Rollout; processRewards: AuditSteps['processRewards'] }) {
  const rows = useMemo(() => processScoreRows(record, processRewards), [record, processRewards]);
  const shown = rows.length > SHOWN_ROWS ? rows.slice(0, SHOWN_ROWS) : rows;
  const rest = rows.slice(SHOWN_ROWS);
  // Rows are in step order, the scores naming no step last.
  const restFrom = rest[0]?.step ?? null;
  let restTo: number | null = null;
  for (let i = rest.length - 1; i >= 0 && restTo === null; i--) restTo = rest[i]?.step ?? null;
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
            {shown.map((r) => (
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
          {rest.length > 0 && (
            <tfoot>
              <tr>
                <td colSpan={4} className="faint">
                  … and {plural(rest.length, 'more row')}
                  {restFrom !== null && ` (steps ${restFrom}–${restTo})`}: the Steps view shows each step’s process_reward
                </td>
              </tr>
            </tfoot>
          )}
        </table>
      )}
    </section>
  );
}
