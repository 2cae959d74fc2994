import { formatStatistic, type GroupChange } from '../../analysis';
import { VirtualRows } from './VirtualRows';

const COLUMNS = 'minmax(180px, 1.6fr) 80px minmax(110px, 1fr) minmax(110px, 1fr) minmax(100px, 0.8fr) 130px';
const HEAD = ['Group', 'Regraded', 'Mean, old → new', 'Std, old → new', 'Zero variance', 'Advantages changed'] as const;

const zero = (z: boolean) => (z ? 'yes' : 'no');

/** The groups whose GRPO statistics the new rewards change: mean, std, zero variance, advantages. */
export function GroupChanges({ groups }: { groups: readonly GroupChange[] }) {
  if (groups.length === 0) return <p className="faint">No group’s statistics changed.</p>;
  return (
    <VirtualRows
      label="Groups whose statistics changed"
      columns={COLUMNS}
      head={HEAD}
      count={groups.length}
      row={(i) => {
        const g = groups[i];
        if (!g) return null;
        return (
          <>
            <td className="mono" title={g.group_id}>
              {g.group_id}
            </td>
            <td>
              {g.regraded} of {g.rollouts}
            </td>
            <td className="mono">
              {formatStatistic(g.old.mean)} → <strong>{formatStatistic(g.new.mean)}</strong>
            </td>
            <td className="mono">
              {formatStatistic(g.old.std)} → <strong>{formatStatistic(g.new.std)}</strong>
            </td>
            <td className={g.old.zeroVariance !== g.new.zeroVariance ? 'regrade-changed' : undefined}>
              {zero(g.old.zeroVariance)} → {zero(g.new.zeroVariance)}
            </td>
            <td>{g.advantagesChanged}</td>
          </>
        );
      }}
    />
  );
}
