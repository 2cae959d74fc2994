import { memo, type ReactNode, useMemo, useRef, useState } from 'react';
import { ComposedChart, Legend, ReferenceArea, ResponsiveContainer, Tooltip, useChartWidth, XAxis, YAxis } from 'recharts';
import { formatStatistic } from '../../analysis';
import type { StepRange } from '../../state';
import { type ChartRow, rowOf } from './runModel';
import { stepTicks } from './stepTicks';

interface Props {
  title: string;
  rows: readonly ChartRow[];
  selected: StepRange | null;
  compare: StepRange | null;
  /** A click selects that step; a drag across steps selects the range. */
  onSelect: (range: StepRange) => void;
  /** Formats a y value for the axis and tooltip (default: three significant digits, never 16). */
  format?: (v: number) => string;
  /** What the y axis measures, with its unit: the axis title. */
  yLabel: string;
  domain?: [number, number] | 'share' | [(min: number) => number, (max: number) => number];
  /** The y axis's ticks, where recharts' own would not do (a stacked share's sums a float over 1 gave 0, 30, 60, 90 %). */
  yTicks?: readonly number[];
  children: ReactNode;
  /** One line under the title: what the chart counts. */
  note?: string;
  /** Name the series under the plot (a chart of more than one). */
  legend?: boolean;
  /**
   * Draw the axes with no rows yet (the run page's first chart, while the run's first rows are read):
   * recharts lays the chart out then, and the rows only add its line.
   */
  frame?: boolean;
}

const MARGIN = { top: 6, right: 12, bottom: 12, left: 8 };
const AXIS_TITLE = { fontSize: 11, fill: 'var(--text-muted)' };
const threeDigits = (v: number) => formatStatistic(v, 3);
// paddingTop keeps the legend below the x axis title (recharts counts it in the room it takes).
const LEGEND_STYLE = { fontSize: 11, lineHeight: '14px', paddingTop: 14 };
/**
 * A share from 0 to its largest value rounded up to the next 5 % (ticks of 10 %, not 9.5 % and 19 %), never
 * less than 5 % tall: a flat 0 reads as 0, not as noise.
 */
const SHARE_DOMAIN: [number, (max: number) => number] = [0, (max: number) => Math.min(1, Math.max(Math.ceil(max * 20 - 1e-9) / 20, 0.05))];

const Y_AXIS_WIDTH = 52;
const TICK = { fontSize: 11 };

/**
 * The row under the pointer, from where it is on the plot: a category axis gives each row an equal band.
 * Not recharts' `activeLabel`, which follows the last throttled mouse move: a press with no move before it
 * (a click straight after coming in) read the step hovered before (issue 31).
 */
function rowUnder(plot: HTMLElement | null, clientX: number, count: number): number | null {
  if (!plot || count === 0) return null;
  const box = plot.getBoundingClientRect();
  const left = box.left + MARGIN.left + Y_AXIS_WIDTH;
  const width = box.right - MARGIN.right - left;
  if (width <= 0) return null;
  const at = Math.floor(((clientX - left) / width) * count);
  return Math.max(0, Math.min(count - 1, at));
}

type PointerEvent = { clientX?: number } | undefined;

/** A step range shaded across the plot (on the bins that hold its ends). */
function shade(rows: readonly ChartRow[], range: StepRange, fill: string, fillOpacity: number) {
  return (
    <ReferenceArea
      x1={rowOf(rows, range.from)?.step}
      x2={rowOf(rows, range.to)?.step}
      fill={fill}
      fillOpacity={fillOpacity}
      ifOverflow="extendDomain"
    />
  );
}

/**
 * One measure over training steps, with the selected and compared ranges shaded. Memoized: the run page
 * passes the same rows, series and formats until a chart's turn to redraw comes (RunPage.tsx); a filter's
 * render redrew the eight other charts with their rows unchanged, 240-280 ms of one task in all (timed
 * renders), ~145 ms with the reward chart alone (issue 25).
 */
export const TrendChart = memo(TrendChartView);

function TrendChartView({
  title,
  rows,
  selected,
  compare,
  onSelect,
  format = threeDigits,
  domain,
  children,
  note,
  legend,
  yLabel,
  frame,
  yTicks,
}: Props) {
  const plot = useRef<HTMLDivElement>(null);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const [dragTo, setDragTo] = useState<number | null>(null);
  // After a click the tooltip hides until the pointer moves to another row: it stayed over the new selection.
  const [quietOn, setQuietOn] = useState<number | null>(null);
  const stepAt = (e: PointerEvent): number | null => {
    const i = e?.clientX === undefined ? null : rowUnder(plot.current, e.clientX, rows.length);
    return i === null ? null : (rows[i]?.step ?? null);
  };
  const reset = () => {
    setDragFrom(null);
    setDragTo(null);
  };
  const end = (e: PointerEvent) => {
    const to = stepAt(e) ?? dragTo;
    const from = dragFrom ?? to;
    if (from === null || to === null) return void reset();
    // A point may be a bin of steps: the selection covers every step of the bins it touches.
    const a = rowOf(rows, Math.min(from, to));
    const b = rowOf(rows, Math.max(from, to));
    if (a && b) onSelect({ from: a.step, to: b.stepTo });
    setQuietOn(to);
    reset();
  };
  const move = (e: PointerEvent) => {
    const at = stepAt(e);
    if (dragFrom !== null) setDragTo(at);
    if (quietOn !== null && at !== quietOn) setQuietOn(null);
  };
  return (
    <figure className="trend" aria-label={title}>
      <figcaption className="trend__title">
        {title}
        {note && <span className="trend__note">{note}</span>}
      </figcaption>
      <div className="trend__plot" ref={plot}>
        {/* No rows yet (RunPage draws its first chart alone): the title only, nothing for recharts to lay out. */}
        {(rows.length > 0 || frame) && (
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart
              data={rows as ChartRow[]}
              margin={MARGIN}
              onMouseDown={(_: unknown, e: PointerEvent) => setDragFrom(stepAt(e))}
              onMouseMove={(_: unknown, e: PointerEvent) => move(e)}
              onMouseUp={(_: unknown, e: PointerEvent) => end(e)}
              onMouseLeave={() => setQuietOn(null)}
              style={{ cursor: 'crosshair', userSelect: 'none' }}
            >
              <StepAxis rows={rows} />
              <YAxis
                width={Y_AXIS_WIDTH}
                tick={TICK}
                ticks={yTicks}
                // A share's top is a multiple of 5 % (SHARE_DOMAIN): five steps of it land on round values
                // (0, 1, ..., 5 %); four gave 0, 1.5, 3.0 and 4.5 % under a top of 5.0 %.
                tickCount={domain === 'share' ? 6 : 5}
                tickFormatter={format}
                domain={domain === 'share' ? SHARE_DOMAIN : (domain ?? ['auto', 'auto'])}
                label={{ value: yLabel, angle: -90, position: 'insideLeft', offset: -2, style: { textAnchor: 'middle' }, ...AXIS_TITLE }}
              />
              <Tooltip
                active={quietOn !== null ? false : undefined}
                isAnimationActive={false}
                labelFormatter={(s) => {
                  const r = rowOf(rows, Number(s));
                  return r && r.stepTo !== r.step ? `training steps ${r.step}–${r.stepTo}` : `training step ${s}`;
                }}
                formatter={(v) =>
                  typeof v === 'number'
                    ? format(v)
                    : Array.isArray(v)
                      ? v.map((x) => (typeof x === 'number' ? format(x) : x)).join(' – ')
                      : v
                }
              />
              {compare && shade(rows, compare, '#f59e0b', 0.18)}
              {selected && shade(rows, selected, '#0a66c2', 0.14)}
              {dragFrom !== null && dragTo !== null && <ReferenceArea x1={dragFrom} x2={dragTo} fill="#0a66c2" fillOpacity={0.25} />}
              {children}
              {legend && <Legend iconSize={8} wrapperStyle={LEGEND_STYLE} />}
            </ComposedChart>
          </ResponsiveContainer>
        )}
      </div>
    </figure>
  );
}

const X_TITLE = { value: 'training step', position: 'insideBottom', offset: -10, ...AXIS_TITLE } as const;

/**
 * The x axis, labelled at round steps (stepTicks.ts) for the plot's width; inside the chart, where recharts
 * knows that width. Always the first and the last step (a narrow chart once dropped step 0's).
 */
function StepAxis({ rows }: { rows: readonly ChartRow[] }) {
  const width = useChartWidth() ?? 0;
  const ticks = useMemo(() => stepTicks(rows, width - MARGIN.left - MARGIN.right - Y_AXIS_WIDTH), [rows, width]);
  return <XAxis dataKey="step" type="category" tick={TICK} ticks={ticks} interval={0} label={X_TITLE} />;
}
