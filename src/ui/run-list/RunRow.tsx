import { memo } from 'react';
import { formatStatistic, type RolloutSummary, rowCounts } from '../../analysis';
import { formatCount } from '../../format';
import { formatAdvantage, formatCountShort, formatReward } from '../shared/format';
import { TerminationBadge } from '../shared/TerminationBadge';
import type { Column } from './columns';
import { rolloutLabel } from './rolloutLabel';

interface Props {
  rollout: RolloutSummary;
  policy: string | null;
  /** Under the URL's advantage mode; null when the rollout is not counted in its group. */
  advantage: number | null;
  columns: readonly Column[];
  /** Original index in the loaded rollouts, which clicks report. */
  index: number;
  /** Position among the shown rows. */
  position: number;
  selected: boolean;
  start: number;
}

/** One rollout. Clicks and keys are handled once by the table (`data-index` names the row). */
export const RunRow = memo(function RunRow({ rollout, policy, advantage, columns, index, position, selected, start }: Props) {
  const classes = ['runs__row', selected && 'is-selected', !rollout.in_signal && 'is-excluded'].filter(Boolean).join(' ');
  return (
    <tr
      aria-rowindex={position + 2}
      aria-selected={selected}
      data-index={index}
      className={classes}
      style={{ transform: `translateY(${start}px)` }}
    >
      {columns.map((c) => (
        <td key={c.id} className={c.align === 'end' ? 'runs__cell runs__cell--end' : 'runs__cell'}>
          <Cell column={c.id} rollout={rollout} policy={policy} advantage={advantage} />
        </td>
      ))}
    </tr>
  );
});

function Cell({
  column,
  rollout: r,
  policy,
  advantage,
}: {
  column: Column['id'];
  rollout: RolloutSummary;
  policy: string | null;
  advantage: number | null;
}) {
  switch (column) {
    case 'line':
      return <span className="faint">{r.line}</span>;
    case 'file':
      return <Clipped text={r.file} />;
    case 'rollout':
      return (
        <span className="runs__clip mono" title={r.attempt_id === null ? r.rollout_id : `${r.rollout_id} · attempt ${r.attempt_id}`}>
          <bdi>{rolloutLabel(r)}</bdi>
          {r.attempt_id !== null && <span className="faint"> · {r.attempt_id}</span>}
        </span>
      );
    case 'task':
      return <Clipped text={r.task_id} mono />;
    case 'group':
      return <Clipped text={r.group_id} mono />;
    case 'policy':
      return policy === null ? <span className="faint">—</span> : <Clipped text={policy} mono />;
    case 'termination':
      return <TerminationBadge termination={r.termination} />;
    case 'reward':
      return r.reward === null ? (
        <span className="faint" title="No reward (null)">
          —
        </span>
      ) : (
        <span title={String(r.reward)}>{formatReward(r.reward)}</span>
      );
    case 'advantage':
      return advantage === null ? (
        <span className="faint" title={r.in_signal ? 'Not counted: no reward' : 'Not counted: excluded from the policy signal'}>
          —
        </span>
      ) : (
        <span title={String(advantage)}>{formatAdvantage(advantage)}</span>
      );
    case 'steps':
      return <span title={formatCount(r.steps)}>{formatCountShort(r.steps)}</span>;
    case 'regressions':
      return <Count n={rowCounts(r).regressions} tone="warning" />;
    case 'errors':
      return <Count n={rowCounts(r).errors} tone="error" />;
    case 'warnings':
      return <Count n={rowCounts(r).warnings} tone="warning" />;
    case 'mismatch':
      return (
        <MismatchNumber value={r.mismatch?.max_abs} missing={r.mismatch === undefined ? 'No training record' : 'No position compared'} />
      );
    case 'kl':
      return (
        <MismatchNumber value={r.mismatch?.kl_k3} missing={r.mismatch === undefined ? 'No training record' : 'No position compared'} />
      );
    default:
      return null;
  }
}

function Clipped({ text, mono = false }: { text: string; mono?: boolean }) {
  return (
    <span className={mono ? 'runs__clip mono' : 'runs__clip'} title={text}>
      {text}
    </span>
  );
}

function Count({ n, tone }: { n: number; tone: 'error' | 'warning' }) {
  return (
    <span className={n === 0 ? 'faint' : `count count--${tone}`} title={formatCount(n)}>
      {formatCountShort(n)}
    </span>
  );
}

/** A mismatch statistic: 0 plainly, small values in exponent form, a dash when there is none. */
function MismatchNumber({ value, missing }: { value: number | null | undefined; missing: string }) {
  if (value === null || value === undefined) {
    return (
      <span className="faint" title={missing}>
        —
      </span>
    );
  }
  return <span title={String(value)}>{formatStatistic(value, 3)}</span>;
}
