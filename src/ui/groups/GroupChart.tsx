import { useMemo } from 'react';
import {
  pattern,
  patterns,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  type ScatterShapeProps,
  Tooltip,
  type TooltipContentProps,
  XAxis,
  YAxis,
} from 'recharts';
import { isKnownTermination, terminationInfo } from '../../analysis';
import { toRollout } from '../../state';
import { advantageMode } from '../shared/advantageMode';
import { formatAdvantage, formatReward } from '../shared/format';
import {
  CLUSTER_HEIGHT,
  clusterOffsets,
  GROUP_BADGES,
  type GroupMember,
  type GroupRow,
  POINT_STEP_PX,
  type RewardScale,
} from './groupModel';

/** Pixels per group row: room for two lines of label and a full column of a point cluster. */
const ROW_PX = CLUSTER_HEIGHT * POINT_STEP_PX + 8;
const MARGIN = { top: 6, right: 16, bottom: 0, left: 0 };
const X_AXIS_PX = 26;
const Y_AXIS_PX = 236;
/** Half the height of a group's mean marker, in rows. */
const MEAN_HALF = 0.4;

interface PointDatum {
  kind: 'point';
  x: number;
  y: number;
  /** Offset within its cluster of equal rewards, in px. */
  dx: number;
  dy: number;
  member: GroupMember;
  groupId: string;
  /** Not counted in the group's statistics: excluded from the signal, or no numeric reward. */
  hollow: boolean;
  selected: boolean;
}

interface MeanDatum {
  kind: 'mean';
  x: number;
  y: number;
  row: GroupRow;
  /** Zero-variance rows say so beside their one cluster, on the side with more room. */
  note: { side: 'left' | 'right'; gapPx: number } | null;
}

interface Props {
  rows: readonly GroupRow[];
  scale: RewardScale;
  drGrpo: boolean;
  selectedIndex: number;
}

// Defined once: a new definition component on each render would redraw the pattern every time.
const HATCH = { color: '#fff1c2', definition: pattern({ ...patterns.diagonal, color: '#e3c25a', opacity: 0.55, strokeWidth: 2 }) };

/**
 * Reward per rollout for one page of groups: a row per group, each rollout a point spread vertically
 * within its row, the group mean a vertical bar. Hollow points are not counted (excluded or no reward);
 * rollouts without a reward sit in their own lane on the left. Zero-variance rows are hatched.
 */
export function GroupChart({ rows, scale, drGrpo, selectedIndex }: Props) {
  const { points, means } = useMemo(() => chartData(rows, scale, selectedIndex), [rows, scale, selectedIndex]);
  const height = rows.length * ROW_PX + MARGIN.top + MARGIN.bottom + X_AXIS_PX;
  const rowTicks = rows.map((_, i) => i);
  return (
    <figure className="gchart" aria-label="Reward per rollout by group">
      <figcaption className="gchart__caption">
        Reward of each rollout, a row per group. Hover a point for its advantage ({advantageMode(drGrpo).label}); click it to open the
        rollout.
      </figcaption>
      <ResponsiveContainer width="100%" height={height}>
        <ScatterChart margin={MARGIN} accessibilityLayer={false}>
          {rows.map((g, i) =>
            g.zeroVariance ? (
              <ReferenceArea key={g.group.group_id} y1={i - 0.5} y2={i + 0.5} fill={HATCH} fillOpacity={1} strokeOpacity={0} />
            ) : i % 2 === 1 ? (
              <ReferenceArea key={g.group.group_id} y1={i - 0.5} y2={i + 0.5} fill="#f6f7f9" fillOpacity={1} strokeOpacity={0} />
            ) : null,
          )}
          <XAxis
            type="number"
            dataKey="x"
            domain={scale.domain}
            ticks={[scale.noRewardX, ...scale.ticks]}
            tickFormatter={(v: number) => (v === scale.noRewardX ? 'no reward' : formatReward(v))}
            height={X_AXIS_PX}
            tick={{ fontSize: 11, fill: '#5a6470' }}
            allowDataOverflow
          />
          <YAxis
            type="number"
            dataKey="y"
            domain={[-0.5, rows.length - 0.5]}
            ticks={rowTicks}
            reversed
            width={Y_AXIS_PX}
            interval={0}
            tickLine={false}
            tick={(props: { x: number | string; y: number | string; payload: { value: unknown } }) => (
              <GroupTick x={Number(props.x)} y={Number(props.y)} row={rows[Number(props.payload.value)]} />
            )}
            allowDataOverflow
          />
          <ReferenceLine x={scale.dividerX} stroke="#c9ced6" strokeDasharray="3 3" />
          <Tooltip
            cursor={false}
            isAnimationActive={false}
            content={(p: TooltipContentProps) => <ChartTooltip payload={p.payload} active={p.active} drGrpo={drGrpo} />}
          />
          <Scatter data={points} shape={PointShape} isAnimationActive={false} legendType="none" />
          {/* Over the points so a mean inside a cluster still shows; it takes no pointer events. */}
          <Scatter data={means} shape={MeanShape} isAnimationActive={false} legendType="none" tooltipType="none" />
        </ScatterChart>
      </ResponsiveContainer>
    </figure>
  );
}

function chartData(rows: readonly GroupRow[], scale: RewardScale, selectedIndex: number) {
  const points: PointDatum[] = [];
  const means: MeanDatum[] = [];
  rows.forEach((row, i) => {
    const xs = row.members.map((m) => m.rollout.reward ?? scale.noRewardX);
    const offsets = clusterOffsets(xs);
    row.members.forEach((member, k) => {
      points.push({
        kind: 'point',
        x: xs[k] ?? scale.noRewardX,
        y: i,
        dx: offsets[k]?.dx ?? 0,
        dy: offsets[k]?.dy ?? 0,
        member,
        groupId: row.group.group_id,
        hollow: member.advantage === null,
        selected: member.index === selectedIndex,
      });
    });
    const { mean } = row.group;
    if (mean === null) return;
    const clusterHalf = Math.max(0, ...offsets.map((o) => Math.abs(o.dx))) + POINT_STEP_PX;
    const middle = (scale.domain[0] + scale.domain[1]) / 2;
    const note = row.zeroVariance ? { side: mean > middle ? ('left' as const) : ('right' as const), gapPx: clusterHalf + 6 } : null;
    means.push({ kind: 'mean', x: mean, y: i, row, note });
  });
  return { points, means };
}

function pointLabel(p: PointDatum): string {
  const r = p.member.rollout;
  const id = r.attempt_id === null ? r.rollout_id : `${r.rollout_id} · ${r.attempt_id}`;
  const reward = r.reward === null ? 'no reward' : `reward ${formatReward(r.reward)}`;
  const counted = p.hollow ? 'not counted (hollow)' : `advantage ${formatAdvantage(p.member.advantage ?? 0)}`;
  return `${id} in ${p.groupId}: ${terminationInfo(r.termination).label}, ${reward}, ${counted}`;
}

function PointShape(props: ScatterShapeProps) {
  const p: PointDatum | undefined = props.payload;
  if (!p || props.cx === undefined || props.cy === undefined) return <g />;
  const kind = isKnownTermination(p.member.rollout.termination) ? p.member.rollout.termination : 'unknown';
  const classes = ['gpoint', `gpoint--${kind}`, p.hollow && 'is-hollow', p.selected && 'is-selected'].filter(Boolean).join(' ');
  return (
    // Out of the tab order (a page holds ~100 points): the group's table opens the same rollouts from the keyboard.
    // biome-ignore lint/a11y/useSemanticElements: SVG has no <button>; a circle is the mark
    <circle
      role="button"
      tabIndex={-1}
      aria-label={pointLabel(p)}
      data-group={p.groupId}
      data-hollow={p.hollow}
      className={classes}
      cx={props.cx + p.dx}
      cy={props.cy + p.dy}
      r={p.selected ? 6 : 5}
      onClick={() => toRollout(p.member.key)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') toRollout(p.member.key);
      }}
    />
  );
}

function MeanShape(props: ScatterShapeProps) {
  const m: MeanDatum | undefined = props.payload;
  if (!m || props.cx === undefined || props.cy === undefined) return <g />;
  const half = MEAN_HALF * ROW_PX;
  return (
    <g className="gmean" aria-label={`mean of ${m.row.group.group_id}: ${formatReward(m.x)}`}>
      <line className="gmean__halo" x1={props.cx} x2={props.cx} y1={props.cy - half} y2={props.cy + half} />
      <line x1={props.cx} x2={props.cx} y1={props.cy - half} y2={props.cy + half} />
      {m.note && (
        <text
          className="gmean__note"
          x={props.cx + (m.note.side === 'left' ? -m.note.gapPx : m.note.gapPx)}
          y={props.cy + 4}
          textAnchor={m.note.side === 'left' ? 'end' : 'start'}
        >
          zero variance: every advantage is 0, no learning signal
        </text>
      )}
    </g>
  );
}

/** Middle-truncates long ids: the tail often names the policy version. */
function clip(id: string, max = 30): string {
  return id.length <= max ? id : `${id.slice(0, max - 12)}…${id.slice(-11)}`;
}

function GroupTick({ x, y, row }: { x: number; y: number; row: GroupRow | undefined }) {
  if (!row) return null;
  const g = row.group;
  // n as §6 counts it: in the signal with a numeric reward (what the mean and std are over), of all rollouts.
  const counted = row.members.filter((m) => m.advantage !== null).length;
  const stats = [
    `n ${counted}/${g.rollouts}`,
    g.mean === null ? 'no mean' : `mean ${g.mean.toFixed(2)}`,
    g.std === null ? null : `std ${g.std.toFixed(2)}`,
  ].filter(Boolean);
  const flags = row.codes.map((c) => GROUP_BADGES[c] ?? c);
  // Two lines, or three when flagged, centred on the row.
  const top = y - (flags.length > 0 ? 10 : 4);
  return (
    <g className="gtick">
      <text x={x - 8} y={top} textAnchor="end" className="gtick__id">
        {clip(g.group_id) !== g.group_id && <title>{g.group_id}</title>}
        {clip(g.group_id)}
      </text>
      <text x={x - 8} y={top + 14} textAnchor="end" className="gtick__stats">
        {stats.join(' · ')}
      </text>
      {flags.length > 0 && (
        <text x={x - 8} y={top + 27} textAnchor="end" className="gtick__flag">
          ⚠ {flags.join(' · ')}
        </text>
      )}
    </g>
  );
}

function ChartTooltip({ payload, active, drGrpo }: { payload: TooltipContentProps['payload']; active: boolean; drGrpo: boolean }) {
  const datum: PointDatum | MeanDatum | undefined = payload?.[0]?.payload;
  if (!active || datum?.kind !== 'point') return null;
  const mode = advantageMode(drGrpo);
  const r = datum.member.rollout;
  return (
    <div className="gtip">
      <div className="gtip__title mono">
        <bdi>{r.rollout_id}</bdi>
        {r.attempt_id !== null && <span className="faint"> · {r.attempt_id}</span>}
      </div>
      <div>{terminationInfo(r.termination).meaning}</div>
      <div>reward {r.reward === null ? <span className="faint">none</span> : formatReward(r.reward)}</div>
      <div>
        advantage ({mode.label}){' '}
        {datum.member.advantage === null ? <span className="faint">not counted</span> : formatAdvantage(datum.member.advantage)}
      </div>
      <div className="faint">click to open</div>
    </div>
  );
}
