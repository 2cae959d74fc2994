import { useMemo } from 'react';
import { Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { FailureModesResult } from '../../analysis';
import { HorizontalGrid } from '../shared/HorizontalGrid';
import { useStaggered } from '../shared/useStaggered';
import { CHARTED_MODES, modeChartRows } from './modesModel';

/** One colour per charted mode (rank order), then grey for the others; readable on white, told apart in print. */
export const MODE_COLORS = ['#c4202b', '#0a66c2', '#8a5a00', '#116329', '#7b3fb5'] as const;
const OTHER_COLOR = '#8b949e';
const percent = (v: number) => `${Math.round(v * 1000) / 10}%`;

/** Ticks at whole tens of percent (fives below 20 %), up to the largest share rounded up to one. */
function shareTicks(rows: ReturnType<typeof modeChartRows>): number[] {
  let max = 0;
  for (const r of rows) for (const [k, v] of Object.entries(r)) if (k !== 'step' && k !== 'rollouts') max = Math.max(max, v);
  const step = max <= 0.2 ? 0.05 : 0.1;
  const top = Math.min(1, Math.max(step, Math.ceil(max / step - 1e-9) * step));
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => Math.round(i * step * 100) / 100);
}

interface Props {
  result: FailureModesResult;
  /** Index of the mode hovered or chosen in the table: its line is drawn thicker, the others fainter. */
  focus: number | null;
}

/** Each of the first modes' share of a training step's rollouts, over the steps: which fade, which stay. */
export function ModesChart({ result, focus }: Props) {
  const rows = useMemo(() => modeChartRows(result), [result]);
  // The chart is drawn in parts, one per render: its axes, then the grid and the tooltip, then each line.
  // The whole chart's first layout in one render was a task of 51-155 ms after the page's first modes were
  // drawn (npm run bench, a 1,000-step run).
  const parts = useStaggered(result, CHARTED_MODES + 2, null);
  const drawn = (part: number) => parts[part] === result;
  if (rows.length === 0) return null;
  const charted = result.modes.slice(0, CHARTED_MODES);
  const ticks = shareTicks(rows);
  const domain = [0, ticks[ticks.length - 1] ?? 1] as const;
  const series = charted.map((m, k) => ({
    key: `m${k}`,
    name: `#${k + 1} ${m.termination}${m.verdict ? ` (${m.verdict})` : ''} · ${m.source}`,
    color: MODE_COLORS[k] ?? OTHER_COLOR,
  }));
  const others = result.modes.length > CHARTED_MODES ? `${result.modes.length - CHARTED_MODES} other modes` : null;
  return (
    <figure className="modes-chart" aria-label="Share of rollouts in each failure mode by training step">
      <figcaption>
        Share of each training step’s rollouts in the {charted.length} largest modes
        {result.modes.length > CHARTED_MODES ? ' and in all others' : ''}
      </figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={rows} margin={{ top: 6, right: 16, bottom: 18, left: 4 }}>
          {drawn(0) && <HorizontalGrid ticks={ticks} domain={domain} />}
          <XAxis
            dataKey="step"
            // A number axis: a few ticks, where a category axis of 200 steps measured every label.
            type="number"
            domain={['dataMin', 'dataMax']}
            allowDecimals={false}
            // Every tick of the axis's few labelled: a named interval measures each label in the DOM to
            // drop the ones that would overlap, a forced layout per label (npm run bench).
            interval={0}
            tick={{ fontSize: 11 }}
            label={{ value: 'training step', position: 'insideBottom', offset: -10, fontSize: 11, fill: 'var(--text-muted)' }}
          />
          <YAxis tickFormatter={percent} tick={{ fontSize: 11 }} width={48} ticks={ticks} domain={domain} interval={0} />
          {drawn(0) && (
            <Tooltip
              formatter={(v, name) => [percent(Number(v)), String(name)]}
              labelFormatter={(step) => `training step ${step}`}
              contentStyle={{ fontSize: 12, maxWidth: 420, whiteSpace: 'normal' }}
            />
          )}
          {series.map(
            (line, k) =>
              drawn(k + 1) && (
                <Line
                  key={line.key}
                  dataKey={line.key}
                  name={line.name}
                  stroke={line.color}
                  strokeWidth={focus === k ? 3 : 1.5}
                  strokeOpacity={focus === null || focus === k ? 1 : 0.35}
                  dot={false}
                  isAnimationActive={false}
                />
              ),
          )}
          {others && drawn(CHARTED_MODES + 1) && (
            <Line
              dataKey="other"
              name={others}
              stroke={OTHER_COLOR}
              strokeDasharray="4 3"
              strokeOpacity={focus === null ? 1 : 0.35}
              dot={false}
              isAnimationActive={false}
            />
          )}
        </LineChart>
      </ResponsiveContainer>
      {/* The legend is the page's own list, not the chart library's: its Legend measures itself and lays the
          chart out again, a second pass in the same task (the page's longest, npm run bench). */}
      <ul className="modes-chart__legend">
        {series.map((line, k) => (
          <li key={line.key} className={focus === null || focus === k ? undefined : 'modes-chart__faint'}>
            <span className="modes-chart__swatch" style={{ borderColor: line.color }} aria-hidden="true" />
            {line.name}
          </li>
        ))}
        {others && (
          <li className={focus === null ? undefined : 'modes-chart__faint'}>
            <span className="modes-chart__swatch modes-chart__swatch--dashed" style={{ borderColor: OTHER_COLOR }} aria-hidden="true" />
            {others}
          </li>
        )}
      </ul>
    </figure>
  );
}
