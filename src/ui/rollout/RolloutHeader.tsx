import { plural, terminationInfo } from '../../analysis';
import { backToList, openRollout, setParams } from '../../state';
import { formatAdvantage, formatReward } from '../shared/format';
import { TerminationBadge } from '../shared/TerminationBadge';
import type { RolloutContext } from './rolloutContext';

interface Props {
  ctx: RolloutContext;
  total: number;
  prevKey: string | undefined;
  nextKey: string | undefined;
}

/** Who the rollout is and how it ended: the facts every tab shares. */
export function RolloutHeader({ ctx, total, prevKey, nextKey }: Props) {
  const { summary: s, advantage } = ctx;
  const info = terminationInfo(s.termination);
  const errors = s.findings.filter((f) => f.severity === 'error').length;
  const warnings = s.findings.length - errors;
  return (
    <header className="rollout-head">
      <div className="rollout-head__nav">
        <button type="button" className="link-button" onClick={backToList}>
          ← All rollouts
        </button>
        <span className="faint">
          {ctx.index + 1} of {total}
        </span>
        <button
          type="button"
          className="small-button"
          disabled={!prevKey}
          onClick={() => prevKey && openRollout(prevKey)}
          title="Previous rollout (k)"
        >
          ‹ prev
        </button>
        <button
          type="button"
          className="small-button"
          disabled={!nextKey}
          onClick={() => nextKey && openRollout(nextKey)}
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
      </div>
      <dl className="rollout-head__facts">
        <div className="rollout-head__fact">
          <dt>Reward</dt>
          <dd>{s.reward === null ? <span className="faint">— (null)</span> : formatReward(s.reward)}</dd>
        </div>
        <div className="rollout-head__fact">
          <dt title={ctx.drGrpo ? 'Dr. GRPO: r − mean' : 'GRPO: (r − mean) / (std + 1e-6)'}>Advantage{ctx.drGrpo ? ' (Dr. GRPO)' : ''}</dt>
          <dd>{advantage === null ? <span className="faint">not counted</span> : formatAdvantage(advantage)}</dd>
        </div>
        <div className="rollout-head__fact">
          <dt>Group</dt>
          <dd>
            <button
              type="button"
              className="link-button mono"
              onClick={() => setParams({ view: 'groups', tab: null, step: null, seq: null, tok: null }, { replace: false })}
            >
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
          <dd>{s.steps}</dd>
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
    </header>
  );
}
