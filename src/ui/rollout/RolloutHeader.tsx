import { formatCount, plural, rowCounts, terminationInfo } from '../../analysis';
import { backToList, toGroups, toRollout, toSearch, useSelectedRollout, useSelection } from '../../state';
import { advantageMode } from '../shared/advantageMode';
import { formatAdvantage, formatReward } from '../shared/format';
import { TerminationBadge } from '../shared/TerminationBadge';
import { ReadByShape } from './ReadByShape';

/** Who the rollout is and how it ended: the facts every tab shares. */
export function RolloutHeader() {
  const ctx = useSelectedRollout();
  const { query } = useSelection();
  if (!ctx) return null;
  const { summary: s, advantage, total, prevKey, nextKey } = ctx;
  const info = terminationInfo(s.termination);
  const said = (ctx.record?.extra as Record<string, unknown> | undefined)?.termination_evidence;
  const evidence = typeof said === 'string' && said !== '' ? said : null;
  // Counted as the list counts them (a run's row holds counts until its record is read).
  const { errors, warnings } = rowCounts(s);
  return (
    <header className="rollout-head">
      <div className="rollout-head__nav">
        <button type="button" className="link-button" onClick={backToList}>
          ← All rollouts
        </button>
        {query !== '' && (
          // Opened from a search hit: the way back to the results (the URL still holds the query).
          <button type="button" className="link-button" onClick={() => toSearch(query)}>
            ← Results for “{query}”
          </button>
        )}
        <span className="faint">
          {ctx.index + 1} of {total}
        </span>
        <button
          type="button"
          className="small-button"
          disabled={!prevKey}
          onClick={() => prevKey && toRollout(prevKey)}
          title="Previous rollout (k)"
        >
          ‹ prev
        </button>
        <button
          type="button"
          className="small-button"
          disabled={!nextKey}
          onClick={() => nextKey && toRollout(nextKey)}
          title="Next rollout (j)"
        >
          next ›
        </button>
      </div>
      <div className="rollout-head__main">
        <h2 className="rollout-head__id mono">
          <bdi>{s.rollout_id}</bdi>
          {s.attempt_id !== null && <span className="faint"> · {s.attempt_id}</span>}
        </h2>
        <TerminationBadge termination={s.termination} />
        <span className={info.inSignal ? 'rollout-head__meaning' : 'rollout-head__meaning rollout-head__meaning--excluded'}>
          {info.meaning}
        </span>
        {evidence !== null && (
          // Where a converted record's termination was read from, when no stop of the agent's own said it (issue 29).
          <span className="faint" title="The field of the source record this termination was read from">
            read from {evidence}
          </span>
        )}
      </div>
      <dl className="rollout-head__facts">
        <div className="rollout-head__fact">
          <dt>Reward</dt>
          <dd>{s.reward === null ? <span className="faint">— (null)</span> : formatReward(s.reward)}</dd>
        </div>
        <div className="rollout-head__fact">
          <dt title={`${advantageMode(ctx.drGrpo).label}: ${advantageMode(ctx.drGrpo).formula}`}>
            Advantage{ctx.drGrpo ? ' (Dr. GRPO)' : ''}
          </dt>
          <dd>{advantage === null ? <span className="faint">not counted</span> : formatAdvantage(advantage)}</dd>
        </div>
        <div className="rollout-head__fact">
          <dt>Group</dt>
          <dd>
            <button type="button" className="link-button mono" onClick={toGroups}>
              {s.group_id}
            </button>
          </dd>
        </div>
        <div className="rollout-head__fact">
          <dt>Task</dt>
          <dd className="mono">{s.task_id}</dd>
        </div>
        <div className="rollout-head__fact">
          <dt>Steps</dt>
          <dd>{formatCount(s.steps)}</dd>
        </div>
        <div className="rollout-head__fact">
          <dt>Findings</dt>
          <dd>
            <span className={errors ? 'count--error' : 'faint'}>{plural(errors, 'error')}</span>,{' '}
            <span className={warnings ? 'count--warning' : 'faint'}>{plural(warnings, 'warning')}</span>
          </dd>
        </div>
        <div className="rollout-head__fact">
          <dt>Line</dt>
          <dd className="mono">
            {s.file}:{s.line}
          </dd>
        </div>
      </dl>
      <ReadByShape record={ctx.record} />
    </header>
  );
}
