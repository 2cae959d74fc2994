import { memo } from 'react';
import { type FailureMode, formatCount, plural } from '../../analysis';
import { toRollout, toSearch } from '../../state';
import { MODE_COLORS } from './ModesChart';
import { modeTrend } from './modesModel';

const percent = (v: number) => `${Math.round(v * 1000) / 10}%`;
/** Tasks named on a mode's row; the rest are counted. */
const TASKS_SHOWN = 3;

/** Bars drawn at most: a run of 1,000 steps is binned, so a row keeps its width (and its name its room). */
const MAX_BARS = 60;
const BAR_W = 4;
const BAR_H = 24;

/**
 * A mode's share of the rollouts at each numbered training step, as bars scaled to its own largest share;
 * more steps than MAX_BARS are binned (each bar the share over its bin's rollouts).
 */
function StepBars({ mode, color }: { mode: FailureMode; color: string }) {
  const steps = mode.steps.filter((s) => s.step !== null);
  if (steps.length < 2) return null;
  const per = Math.ceil(steps.length / MAX_BARS);
  const bars: { key: number; share: number; count: number }[] = [];
  for (let i = 0; i < steps.length; i += per) {
    const bin = steps.slice(i, i + per);
    const rollouts = bin.reduce((n, s) => n + s.rollouts, 0);
    const count = bin.reduce((n, s) => n + s.count, 0);
    bars.push({ key: bin[0]?.step ?? i, share: rollouts === 0 ? 0 : count / rollouts, count });
  }
  const max = Math.max(...bars.map((b) => b.share), 1e-9);
  const first = steps[0]?.step;
  const last = steps[steps.length - 1]?.step;
  return (
    <svg
      className="mode-row__bars"
      width={bars.length * BAR_W}
      height={BAR_H}
      role="img"
      aria-label={`share by training step, ${first} to ${last}${per > 1 ? `, ${per} steps a bar` : ''}; most ${percent(max)}`}
    >
      {bars.map((b, i) => {
        const h = Math.max(b.count > 0 ? 1 : 0, Math.round((b.share / max) * BAR_H));
        return <rect key={b.key} x={i * BAR_W} y={BAR_H - h} width={BAR_W - 1} height={h} fill={color} />;
      })}
    </svg>
  );
}

interface Props {
  mode: FailureMode;
  rank: number;
  onFocus: (rank: number | null) => void;
}

/**
 * One failure mode: its size, its name, its trend over training, its tasks, and the way to its rollouts.
 * Memoized: the page renders again as its chart and the rest of its list arrive, and as a row is hovered;
 * a row drawn once is not drawn again for those (npm run bench: the page's longest task).
 */
export const ModeRow = memo(function ModeRow({ mode, rank, onFocus }: Props) {
  const trend = modeTrend(mode);
  const color = MODE_COLORS[rank] ?? '#8b949e';
  const more = mode.tasks.length - TASKS_SHOWN + mode.other_tasks;
  return (
    <li className="mode-row" onMouseEnter={() => onFocus(rank)} onMouseLeave={() => onFocus(null)}>
      <div className="mode-row__size">
        <span className="mode-row__rank" style={{ borderColor: color }}>
          #{rank + 1}
        </span>
        <strong>{formatCount(mode.count)}</strong>
        <span className="mode-row__share">{percent(mode.share)} of rollouts</span>
      </div>
      <div className="mode-row__body">
        <p className="mode-row__name">{mode.name}</p>
        <p className="mode-row__facts">
          {plural(mode.tasks.length + mode.other_tasks, 'task')}:{' '}
          {mode.tasks
            .slice(0, TASKS_SHOWN)
            .map((t) => `${t.task_id} (${formatCount(t.count)})`)
            .join(', ')}
          {more > 0 ? `, ${formatCount(more)} more` : ''}
          {Object.keys(mode.finding_codes).length > 0 && <> · findings {Object.keys(mode.finding_codes).join(', ')}</>}
        </p>
        <div className="mode-row__actions">
          <button type="button" onClick={() => toSearch(mode.query)} title={mode.query}>
            Show its rollouts
          </button>
          {mode.exemplars.map((e) => (
            <button key={e.key} type="button" className="mode-row__exemplar" onClick={() => toRollout(e.key)} title={`${e.file}:${e.line}`}>
              {e.key}
            </button>
          ))}
        </div>
      </div>
      <div className="mode-row__trend">
        <StepBars mode={mode} color={color} />
        {trend && (
          <span className={trend.late < trend.early ? 'mode-row__fell' : trend.late > trend.early ? 'mode-row__rose' : ''}>
            {percent(trend.early)} → {percent(trend.late)}
            <span className="mode-row__trend-note"> first → last third of steps</span>
          </span>
        )}
      </div>
    </li>
  );
});
