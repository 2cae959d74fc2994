import type { Flip } from '../../analysis';
import { toRollout } from '../../state';
import { advantageCell, verdictCell } from './regradeModel';
import { VirtualRows } from './VirtualRows';

const COLUMNS = 'minmax(140px, 1.2fr) minmax(120px, 1fr) minmax(190px, 1.3fr) minmax(150px, 1fr)';
const HEAD = ['Rollout', 'Task', 'Verdict · reward, old → new', 'Advantage, old → new'] as const;

interface Props {
  flips: readonly Flip[];
  /** The `rollout=` key of every loaded row (Dataset.keys). */
  keys: readonly string[];
}

/** The rollouts whose verdict or reward the regrade changed; a rollout's key opens it. */
export function FlipsTable({ flips, keys }: Props) {
  if (flips.length === 0) return <p className="faint">No rollout changed its verdict or reward under this grader.</p>;
  return (
    <VirtualRows
      label="Flipped rollouts"
      columns={COLUMNS}
      head={HEAD}
      count={flips.length}
      row={(i) => {
        const f = flips[i];
        const key = f === undefined ? undefined : keys[f.index];
        if (!f || key === undefined) return null;
        return (
          <>
            <td>
              <button type="button" className="link-button mono" title={`Open ${key}`} onClick={() => toRollout(key)}>
                {key}
              </button>
            </td>
            <td title={f.row.task_id}>{f.row.task_id}</td>
            <td>
              {verdictCell(f.oldVerdict, f.oldReward)} → <strong>{verdictCell(f.newVerdict, f.newReward)}</strong>
            </td>
            <td className="mono">
              {advantageCell(f.oldAdvantage)} → <strong>{advantageCell(f.newAdvantage)}</strong>
            </td>
          </>
        );
      }}
    />
  );
}
