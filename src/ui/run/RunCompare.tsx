import { formatStatistic, type StepPoint, totalsOver } from '../../analysis';
import { formatRange, type StepRange } from '../../state';
import { type CompareRow, compareRows } from './runModel';

const show = (v: number | null, unit: CompareRow['unit'], signed = false) => {
  if (v === null) return '—';
  const sign = signed && v > 0 ? '+' : '';
  if (unit === 'count') return `${sign}${v.toLocaleString('en-US')}`;
  if (unit === 'share') return `${sign}${(v * 100).toFixed(1)}${signed ? ' pp' : '%'}`;
  // Small values (a KL of 3e-5) keep their digits instead of reading 0.000 or -0.000.
  return `${sign}${Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : formatStatistic(v, 3)}`;
};

/** Two step ranges side by side: each measure in A and B, and the change from A to B. */
export function RunCompare({ points, a, b }: { points: readonly StepPoint[]; a: StepRange; b: StepRange }) {
  const rows = compareRows(totalsOver(points, a.from, a.to), totalsOver(points, b.from, b.to));
  return (
    <table className="run-compare" aria-label="Compare step ranges">
      <thead>
        <tr>
          <th />
          <th className="run-compare__a">steps {formatRange(a)}</th>
          <th className="run-compare__b">steps {formatRange(b)}</th>
          <th>change</th>
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
