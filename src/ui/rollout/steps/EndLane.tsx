import { terminationInfo, timestampMs } from '../../../analysis';
import type { Rollout } from '../../../format';
import { TerminationBadge } from '../../shared/TerminationBadge';
import { formatDuration } from './stepFacts';

function elapsed(record: Rollout): string | null {
  const a = timestampMs(record.started_at);
  const b = timestampMs(record.ended_at);
  return a === null || b === null || b < a ? null : formatDuration(b - a);
}

/**
 * How the rollout ended, after its last step: the termination, what it means, and the budget used.
 * `finish` is the first finish step, found by the steps view's pass (not here: a huge rollout's steps
 * are parsed when read, docs/adr/0018).
 */
export function EndLane({ record, finish }: { record: Rollout; finish: number | null }) {
  const info = terminationInfo(record.termination);
  const detail: unknown = record.termination_detail;
  const budget = record.budget;
  const took = elapsed(record);
  return (
    <section className="st-lane st-lane--end" aria-label="Termination">
      <div className="st-lane__label">Ended</div>
      <div className="st-lane__end-main">
        <TerminationBadge termination={record.termination} />
        <span className={info.inSignal ? 'st-lane__meaning' : 'st-lane__meaning st-lane__meaning--excluded'}>{info.meaning}</span>
      </div>
      <p className="st-lane__meta">
        {typeof detail === 'string' && (
          <>
            <span className="st-lane__key">detail</span> {detail} ·{' '}
          </>
        )}
        {finish !== null ? <>finish called at step {finish}</> : <>no finish call</>}
        {budget?.actions_used !== undefined && (
          <>
            {' '}
            · {budget.actions_used}
            {budget.max_actions !== undefined && ` of ${budget.max_actions}`} actions
          </>
        )}
        {budget?.seconds_used !== undefined && (
          <>
            {' '}
            · {budget.seconds_used} s{budget.max_seconds !== undefined && ` of ${budget.max_seconds} s`}
          </>
        )}
        {took !== null && <> · {took} wall clock</>}
      </p>
    </section>
  );
}
