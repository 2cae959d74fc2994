import { type FailureMode, formatCount, plural } from '../../analysis';
import { toRollout, toSearch } from '../../state';
import { MODE_COLORS } from './ModesChart';
import { modeTrend } from './modesModel';

const percent = (v: number) => `${Math.round(v * 1000) / 10}%`;
/** Tasks named on a mode's row; the rest are counted. */
const TASKS_SHOWN = 3;

/** A mode's share at each numbered training step, as bars scaled to its own largest share. */
function StepBars({ mode, color }: { mode: FailureMode; color: string }) {
  const steps = mode.steps.filter((s) => s.step !== null);
  if (steps.length < 2) return null;
  const max = Math.max(...steps.map((s) => s.share), 1e-9);
  const w = 4;
  return (
    <svg
      className="mode-row__bars"
      width={steps.length * w}
      height={24}
      role="img"
      aria-label={`share by training step, ${steps[0]?.step} to ${steps[steps.length - 1]?.step}; most ${percent(max)}`}
    >
      {steps.map((s, i) => {
        const h = Math.max(s.count > 0 ? 1 : 0, Math.round((s.share / max) * 24));
        return <rect key={s.step} x={i * w} y={24 - h} width={w - 1} height={h} fill={color} />;
      })}
    </svg>
  );
}

interface Props {
  mode: FailureMode;
  rank: number;
  onFocus: (rank: number | null) => void;
}

/** One failure mode: its size, its name, its trend over training, its tasks, and the way to its rollouts. */
export function ModeRow({ mode, rank, onFocus }: Props) {
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
}
