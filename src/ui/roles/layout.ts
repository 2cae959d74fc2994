import type { RoleEventFacts } from '../../analysis';
import type { Step } from '../../format';
import { statusLine } from './callWords';
import { LANES, type Lane, type RoleEvent } from './events';

/*
 * Geometry of the four-role diagram: a column (lane) per role, time running down. Every event gets a
 * row, in order; a box's row grows with its duration when the timestamps give one (capped, so a 5 s
 * wait does not push the rest off screen), so long test runs and gradings look long.
 */

export const WIDTH = 1040;
/** Left margin for the clock. */
export const GUTTER = 80;
export const LANE_WIDTH = (WIDTH - GUTTER) / LANES.length;
export const BOX_WIDTH = 158;
const GAP = 6;
const MS_PER_PX = 30;
const MAX_EXTRA = 50;

/** Rows of boxes with three lines of text (kind, title, detail) need 56. */
const BASE: Record<RoleEvent['kind'], number> = {
  generate: 56,
  dispatch: 32,
  reject: 56, // its third line says it was never executed
  execute: 46,
  observe: 30,
  grade: 56,
  score: 30,
  stop: 56,
  consume: 56,
  update: 56,
  excluded: 56,
};

export function laneX(lane: Lane): number {
  return GUTTER + LANE_WIDTH * (LANES.indexOf(lane) + 0.5);
}

export interface Row {
  y: number;
  height: number;
}

/** The facts an event's row depends on: its words never change its height but through `statusLine`. */
type Placed = Pick<RoleEventFacts, 'kind' | 'durationMs'> & { call?: Step | null };

/** The rows of the events, top to bottom, and the height they need. */
export function layoutRows(events: readonly Placed[], top = 12): { rows: Row[]; height: number } {
  let y = top;
  const rows = events.map((e) => {
    const extra = e.durationMs === null ? 0 : Math.min(MAX_EXTRA, e.durationMs / MS_PER_PX);
    // An execution's box has a third line of text when its status is not ok (statusLine), and needs the room.
    const base = e.kind === 'execute' && e.call && statusLine(e.call) !== null ? 56 : BASE[e.kind];
    const row = { y, height: Math.round(base + extra) };
    y += row.height + GAP;
    return row;
  });
  return { rows, height: y + top };
}

/** The horizontal extent of everything an event draws: its box and its flows, lane edge to lane edge. */
export function eventSpan(e: RoleEvent): { x1: number; x2: number } {
  const lanes: Lane[] = [...e.flows.flatMap((f) => [f.from, f.to]), ...(e.lane ? [e.lane] : []), ...(e.laneEnd ? [e.laneEnd] : [])];
  // An excluded ending also marks the trainer it never reaches.
  if (e.kind === 'excluded') lanes.push('trainer');
  if (lanes.length === 0) return { x1: GUTTER, x2: WIDTH };
  const xs = lanes.map(laneX);
  return { x1: Math.min(...xs) - LANE_WIDTH / 2 + 4, x2: Math.max(...xs) + LANE_WIDTH / 2 - 4 };
}

/** "645 ms", "1.50 s", "12.3 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return ms < 10_000 ? `${(ms / 1000).toFixed(2)} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The clock in the margin: "+0.645 s". */
export function formatClock(ms: number): string {
  return `+${(ms / 1000).toFixed(ms < 10_000 ? 3 : 1)} s`;
}
