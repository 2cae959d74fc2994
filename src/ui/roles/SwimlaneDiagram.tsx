import { useRef } from 'react';
import { type Flow, type FlowKind, LANES, type Lane, type RoleEvent } from './events';
import { BOX_WIDTH, eventSpan, formatClock, formatDuration, GUTTER, LANE_WIDTH, laneX, type Row, WIDTH } from './layout';
import { useEventWindow } from './useEventWindow';

const FLOW_KINDS: readonly FlowKind[] = ['action', 'dispatch', 'observation', 'submission', 'private-grade', 'trajectory'];

const KIND_LABEL: Record<RoleEvent['kind'], string> = {
  generate: 'generate',
  dispatch: 'dispatch',
  reject: 'reject',
  execute: 'execute',
  observe: 'observation',
  grade: 'grade (private)',
  score: 'private grade',
  stop: 'stop',
  consume: 'train',
  update: 'gradient step',
  excluded: 'excluded',
};

/** Boxes of instant harness work are narrower, so the arrows into and out of them stay long enough to read. */
function boxWidth(e: RoleEvent): number {
  return e.kind === 'dispatch' || e.kind === 'reject' || e.kind === 'stop' ? 124 : BOX_WIDTH;
}

function boxBounds(e: RoleEvent): { x1: number; x2: number } | null {
  if (e.lane === null) return null;
  const half = boxWidth(e) / 2;
  return { x1: laneX(e.lane) - half, x2: laneX(e.laneEnd ?? e.lane) + half };
}

/** Where a flow's line starts and ends: at a lane's lifeline, or at the edge of this event's own box. */
function flowEnds(e: RoleEvent, f: Flow): { x1: number; x2: number } {
  const box = boxBounds(e);
  const right = laneX(f.to) >= laneX(f.from);
  let x1 = laneX(f.from);
  let x2 = laneX(f.to);
  if (box && e.lane === f.from) x1 = right ? box.x2 : box.x1;
  if (box && e.lane === f.to) x2 = right ? box.x1 : box.x2;
  // A flow that comes back to the lane it left (a rejected call's error, to the harness itself) is drawn as a short stub.
  if (f.from === f.to) x2 = x1 - 40;
  return { x1, x2: x2 + (right ? -3 : 3) };
}

function flowY(e: RoleEvent, row: Row, i: number): number {
  if (e.kind === 'dispatch' || e.kind === 'reject' || e.lane === null) return row.y + row.height / 2 + 4;
  return row.y + 18 + i * 12;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function FlowLine({ e, f, y }: { e: RoleEvent; f: Flow; y: number }) {
  const { x1, x2 } = flowEnds(e, f);
  // The call's and the dispatch's labels would only repeat the boxes they join.
  const label = f.kind === 'action' || f.kind === 'dispatch' ? null : f.label;
  return (
    <g className={`flow flow--${f.kind}`}>
      <line x1={x1} y1={y} x2={x2} y2={y} markerEnd={`url(#arrow-${f.kind})`} />
      {f.via && <circle className="flow__via" cx={laneX(f.via)} cy={y} r={3.5} />}
      {label && (
        <text className="flow__label" x={(x1 + x2) / 2} y={y - 6} textAnchor="middle">
          {clip(label, 56)}
        </text>
      )}
    </g>
  );
}

function EventBox({ e, row }: { e: RoleEvent; row: Row }) {
  const box = boxBounds(e);
  if (!box || e.lane === null) return null;
  const y = row.y + 3;
  const h = row.height - 6;
  const w = box.x2 - box.x1;
  const cx = (box.x1 + box.x2) / 2;
  const chars = Math.floor(w / 7.4);
  const title = e.title.replace(/^(generate|dispatch|reject|stop:) /, '');
  if (e.kind === 'dispatch') {
    // Instant harness work: one line, so the arrows on either side stay the story.
    return (
      <g className={`box box--${e.lane} box--${e.tone}`}>
        <rect x={box.x1} y={y} width={w} height={h} rx={6} />
        <text x={cx} y={y + h / 2 + 4} textAnchor="middle">
          <tspan className="box__kind">{KIND_LABEL[e.kind]}</tspan>
          <tspan className="box__title" dx={6}>
            {title}
          </tspan>
        </text>
      </g>
    );
  }
  return (
    <g className={`box box--${e.lane} box--${e.tone}`}>
      <rect x={box.x1} y={y} width={w} height={h} rx={6} />
      <text className="box__kind" x={box.x1 + 8} y={y + 13}>
        {KIND_LABEL[e.kind]}
      </text>
      {e.durationMs !== null && (
        <text className="box__duration" x={box.x2 - 8} y={y + 13} textAnchor="end">
          {formatDuration(e.durationMs)}
        </text>
      )}
      <text className="box__title" x={cx} y={y + 29} textAnchor="middle">
        {clip(title, chars)}
      </text>
      {e.detail && h >= 48 && (
        <text className="box__detail" x={cx} y={y + 43} textAnchor="middle">
          {clip(e.detail, Math.floor(w / 5.8))}
        </text>
      )}
    </g>
  );
}

interface ItemProps {
  e: RoleEvent;
  row: Row;
  state: 'all' | 'current' | 'past' | 'future';
  /** 1-based place in the whole list, which a long rollout draws only in part. */
  pos: number;
  of: number;
}

function EventItem({ e, row, state, pos, of }: ItemProps) {
  const box = boxBounds(e);
  const span = eventSpan(e);
  // A step's number sits beside its first event: the generation, or for a step no generation asked
  // for (no action flow), its dispatch.
  const opensStep =
    e.step !== null &&
    (e.kind === 'generate' || ((e.kind === 'dispatch' || e.kind === 'reject') && !e.flows.some((f) => f.kind === 'action')));
  return (
    // biome-ignore lint/a11y/useSemanticElements lint/a11y/noInteractiveElementToNoninteractiveRole: SVG has no li element (biome takes g for interactive); each event is an item of the list in order.
    <g
      id={`role-event-${e.id}`}
      role="listitem"
      aria-label={e.label}
      aria-posinset={pos}
      aria-setsize={of}
      aria-current={state === 'current' ? 'step' : undefined}
      className={`event event--${e.kind} event--${state}`}
    >
      <title>{e.caption}</title>
      {/* A new turn starts with a generation: a faint rule keeps each step's four events together. */}
      {e.kind === 'generate' && pos > 1 && <line className="event__turn" x1={8} x2={WIDTH - 4} y1={row.y - 4} y2={row.y - 4} />}
      {state === 'current' && (
        <rect className="event__band" x={span.x1} y={row.y - 2} width={span.x2 - span.x1} height={row.height + 4} rx={6} />
      )}
      {opensStep && (
        <text className="event__step" x={GUTTER - 8} y={row.y + 16} textAnchor="end">
          step {e.step}
        </text>
      )}
      {e.startMs !== null && e.lane !== null && e.kind !== 'dispatch' && (
        <text className="event__clock" x={GUTTER - 8} y={row.y + (opensStep ? 30 : 16)} textAnchor="end">
          {formatClock(e.startMs)}
        </text>
      )}
      {e.kind === 'excluded' && box && (
        <rect
          className="box__hatch"
          x={box.x1 + 1}
          y={row.y + 4}
          width={box.x2 - box.x1 - 2}
          height={row.height - 8}
          rx={5}
          fill="url(#excluded-hatch)"
        />
      )}
      <EventBox e={e} row={row} />
      {e.flows.map((f, fi) => (
        <FlowLine key={`${f.kind}-${f.from}-${f.to}`} e={e} f={f} y={flowY(e, row, fi)} />
      ))}
      {e.kind === 'excluded' && (
        <g className="unreached">
          <rect x={laneX('trainer') - BOX_WIDTH / 2} y={row.y + 3} width={BOX_WIDTH} height={row.height - 6} rx={6} />
          <text x={laneX('trainer')} y={row.y + row.height / 2 - 2} textAnchor="middle">
            not trained on
          </text>
          <text x={laneX('trainer')} y={row.y + row.height / 2 + 12} textAnchor="middle" className="unreached__small">
            no trajectory, no score
          </text>
        </g>
      )}
    </g>
  );
}

interface Props {
  /** Events on this page (a rollout of one page: all of them). */
  count: number;
  /** The index of the page's first event in the whole rollout, and the events in all. */
  offset: number;
  total: number;
  /** The worded event at an index on the page (worded when first drawn). */
  eventAt: (i: number) => RoleEvent | undefined;
  rows: readonly Row[];
  height: number;
  /** The played event, in the whole rollout; -1 for none. */
  current: number;
  /** An event on the page to bring into view when drawn (the URL's step), or -1. */
  reveal: number;
  excluded: boolean;
}

/**
 * The rollout as a sequence diagram: a lifeline per role, time running down, an arrow per flow. A long
 * rollout draws only the events near the view (useEventWindow).
 */
export function SwimlaneDiagram({ count, offset, total, eventAt, rows, height, current, reveal, excluded }: Props) {
  const svg = useRef<SVGSVGElement>(null);
  const here = current - offset;
  const drawn = useEventWindow(svg, rows, height, current >= 0 && here < count ? here : -1, reveal);
  return (
    // biome-ignore lint/a11y/useSemanticElements: SVG has no list element; the events are read as a list in order.
    <svg ref={svg} className="roles-svg" viewBox={`0 0 ${WIDTH} ${height}`} role="list" aria-label="Events in order">
      <defs>
        {FLOW_KINDS.map((k) => (
          <marker
            key={k}
            id={`arrow-${k}`}
            className={`marker marker--${k}`}
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M0,0 L10,5 L0,10 z" />
          </marker>
        ))}
        <pattern id="excluded-hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="8" height="8" className="hatch__bg" />
          <line x1="0" y1="0" x2="0" y2="8" className="hatch__line" />
        </pattern>
      </defs>
      {LANES.map((lane: Lane, i) => (
        <g key={lane} className={`lane lane--${lane}${excluded && lane === 'trainer' ? ' lane--unreached' : ''}`}>
          <rect
            x={GUTTER + i * LANE_WIDTH}
            y={0}
            width={LANE_WIDTH}
            height={height}
            className={i % 2 === 0 ? 'lane__bg' : 'lane__bg lane__bg--alt'}
          />
          <line x1={laneX(lane)} y1={0} x2={laneX(lane)} y2={height} className="lane__life" />
        </g>
      ))}
      {drawn.map((i) => {
        const e = eventAt(i);
        const row = rows[i];
        if (!e || !row) return null;
        const state = current < 0 ? 'all' : i === here ? 'current' : i < here ? 'past' : 'future';
        return <EventItem key={e.id} e={e} row={row} state={state} pos={offset + i + 1} of={total} />;
      })}
    </svg>
  );
}
