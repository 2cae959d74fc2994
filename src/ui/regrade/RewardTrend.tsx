import { Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatStatistic, type StepRewards } from '../../analysis';
import { HorizontalGrid } from '../shared/HorizontalGrid';
import { trendRows } from './regradeModel';

const OLD_COLOR = '#8b949e';
const NEW_COLOR = '#0a66c2';
const threeDigits = (v: unknown) => formatStatistic(Number(v), 3);

/** The in-signal reward mean per training step, as recorded and under the regrade, as the run page charts it. */
export function RewardTrend({ trend }: { trend: readonly StepRewards[] }) {
  const rows = trendRows(trend);
  return (
    <figure className="regrade-trend" aria-label="Reward mean by training step, old and new">
      <figcaption>Mean reward of the rollouts in the signal, per training step: recorded, and with the regrade’s rewards</figcaption>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={rows} margin={{ top: 6, right: 16, bottom: 18, left: 4 }}>
          <HorizontalGrid />
          <XAxis
            dataKey="step"
            type="number"
            domain={['dataMin', 'dataMax']}
            allowDecimals={false}
            tick={{ fontSize: 11 }}
            label={{ value: 'training step', position: 'insideBottom', offset: -10, fontSize: 11, fill: 'var(--text-muted)' }}
          />
          <YAxis tickFormatter={threeDigits} tick={{ fontSize: 11 }} width={48} domain={[0, 'auto']} />
          <Tooltip
            formatter={(v, name) => [threeDigits(v), String(name)]}
            labelFormatter={(step) => `training step ${step}`}
            contentStyle={{ fontSize: 12 }}
          />
          <Legend wrapperStyle={{ fontSize: 11, paddingTop: 10 }} />
          <Line
            dataKey="old"
            name="recorded"
            stroke={OLD_COLOR}
            strokeWidth={1.5}
            strokeDasharray="4 3"
            dot={false}
            isAnimationActive={false}
          />
          <Line dataKey="new" name="regraded" stroke={NEW_COLOR} strokeWidth={2} dot={{ r: 2 }} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
