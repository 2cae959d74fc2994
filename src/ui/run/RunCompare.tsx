import { formatStatistic, type StepPoint, totalsOver } from '../../analysis';
import { formatCount } from '../../format';
import { formatRange, type StepRange } from '../../state';
import { type CompareRow, compareRows } from './runModel';

const show = (v: number | null, unit: CompareRow['unit'], signed = false) => {
  if (v === null) return '—';
  const sign = signed && v > 0 ? '+' : '';
  if (unit === 'count') return `${sign}${formatCount(v)}`;
  if (unit === 'share') return `${sign}${(v * 100).toFixed(1)}${signed ? ' pp' : '%'}`;
  // Small values (a KL of 3e-5) keep their digits instead of reading 0.000 or -0.000.
  return `${sign}${Math.abs(v) >= 100 ? formatCount(Math.round(v)) : formatStatistic(v, 3)}`;
};

/**
 * Two step ranges side by side, earlier first whichever was picked first: each measure in both, and the
 * change from the earlier to the later (a run that improved reads +, issue 31).
 */
export function RunCompare({ points, a: picked, b: other }: { points: readonly StepPoint[]; a: StepRange; b: StepRange }) {
  const [a, b] = picked.from <= other.from ? [picked, other] : [other, picked];
  const rows = compareRows(totalsOver(points, a.from, a.to), totalsOver(points, b.from, b.to));
  return (
    <table className="run-compare" aria-label="Compare step ranges">
      <thead>
        <tr>
          <th />
          {/* Each range keeps the colour its chart shading has (compared: __a, selected: __b). */}
          <th className={a === picked ? 'run-compare__a' : 'run-compare__b'}>steps {formatRange(a)}</th>
          <th className={b === picked ? 'run-compare__a' : 'run-compare__b'}>steps {formatRange(b)}</th>
          <th>change, later − earlier</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}>
            <th scope="row">{r.label}</th>
            <td>{show(r.a, r.unit)}</td>
            <td>{show(r.b, r.unit)}</td>
            <td className="run-compare__delta">{show(r.delta, r.unit, true)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
