import { diffArrays } from 'diff';
import { stableStringify } from '../../format';
import { chunksOf } from '../chunked';
import { type Pass, runPass } from '../passes';

/*
 * Aligning two rollouts' tool calls step by step (docs/adr/0016): a global sequence alignment
 * (Needleman-Wunsch) over (tool, args) with this cost:
 *   the same tool and the same arguments on one row    0
 *   the same tool, other arguments, on one row          1   ("changed": shown with an argument diff)
 *   a step on one side only                             1   (a gap)
 * Different tools never share a row (that would cost two gaps, so it is never cheaper). The cheapest
 * alignment wins; ties prefer pairing, then A's step first, so the result is deterministic. A diff
 * library's LCS (diff's diffArrays) knows only equal, added and removed, so it cannot put a call with
 * edited arguments beside its counterpart; it is used only past MAX_CELLS, where the quadratic table would
 * not fit, with exact (tool, args) equality and no "changed" rows.
 *
 * A shared first and last run of equal calls is put on rows of its own before either: pairing equal ends
 * is always among the cheapest alignments (an exchange argument: any alignment that does not pair them
 * costs as much or more), and two rollouts of one task mostly share a long start. The alignment is a pass
 * (passes.ts): a million-step rollout's calls are read and keyed a chunk at a time, in slices.
 */

export interface Call {
  tool: string;
  args?: Record<string, unknown> | undefined;
}

export type AlignedRow =
  | { kind: 'same' | 'changed'; a: number; b: number }
  | { kind: 'only-a'; a: number; b: null }
  | { kind: 'only-b'; a: null; b: number };

export interface Alignment {
  rows: AlignedRow[];
  cost: number;
  /** Rows whose calls are the same on both sides. */
  same: number;
  /** Index in `rows` of the first row that is not `same`; -1 when the sequences are identical. */
  firstDivergence: number;
  /**
   * Past MAX_CELLS, when the two middles differ by more than MAX_LARGE_EDITS calls: the alignment gave up
   * there, and lists A's middle calls, then B's, each on its own row (`cost` then counts each once).
   */
  gaveUp: boolean;
}

/**
 * Past this many table cells (n × m, 64 MB of Int32) the alignment falls back to diffArrays'
 * linear-space LCS. The table is filled in slices; the fallback is one call.
 */
const MAX_CELLS = 16_000_000;
/**
 * Past this many edits the linear-space diff gives up: its time grows with edits × calls, and it runs in
 * one task (measured at a million calls a side: 17-23 ms at 300 edits, 58-78 ms at 1,000).
 */
export const MAX_LARGE_EDITS = 300;
/** Table cells filled between two yields of the pass (about a millisecond's work). */
const CELLS_PER_YIELD = 200_000;
/** Rows made between two yields. */
const ROWS_PER_YIELD = 20_000;

const callKey = (c: Call) => `${c.tool}\u0000${stableStringify(c.args ?? {})}`;

export function alignCalls(a: readonly Call[], b: readonly Call[]): Alignment {
  return runPass(alignCallsPass(a, b));
}

/** A string's number in `seen`, the next free one the first time. */
function numberOf(seen: Map<string, number>, s: string): number {
  let n = seen.get(s);
  if (n === undefined) {
    n = seen.size;
    seen.set(s, n);
  }
  return n;
}

/** Each call as a number, equal numbers for equal (tool, args), and its tool as a number too. */
function* keyCalls(
  calls: readonly Call[],
  ids: Map<string, number>,
  tools: Map<string, number>,
  from: number,
  to: number,
): Pass<{ key: Int32Array; tool: Int32Array }> {
  const key = new Int32Array(calls.length);
  const tool = new Int32Array(calls.length);
  for (const [at, run] of chunksOf(calls)) {
    run.forEach((c, k) => {
      key[at + k] = numberOf(ids, callKey(c));
      tool[at + k] = numberOf(tools, c.tool);
    });
    yield from + ((to - from) * (at + run.length)) / Math.max(1, calls.length);
  }
  return { key, tool };
}

/** `alignCalls` as a pass: the calls keyed a chunk at a time, the shared ends trimmed, the middle aligned in slices. */
export function* alignCallsPass(a: readonly Call[], b: readonly Call[]): Pass<Alignment> {
  const ids = new Map<string, number>();
  const tools = new Map<string, number>();
  const ka = yield* keyCalls(a, ids, tools, 0, 0.3);
  const kb = yield* keyCalls(b, ids, tools, 0.3, 0.6);
  let head = 0;
  while (head < a.length && head < b.length && ka.key[head] === kb.key[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && ka.key[a.length - 1 - tail] === kb.key[b.length - 1 - tail]) tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  const middle: Middle = {
    n,
    m,
    keyA: ka.key.subarray(head, head + n),
    keyB: kb.key.subarray(head, head + m),
    toolA: ka.tool.subarray(head, head + n),
    toolB: kb.tool.subarray(head, head + m),
  };
  let gaveUp = false;
  let inner: AlignedRow[];
  if ((n + 1) * (m + 1) <= MAX_CELLS) inner = yield* alignTable(middle);
  else {
    const large = alignLarge(middle);
    gaveUp = large === null;
    inner = large ?? [
      ...Array.from({ length: n }, (_, i): AlignedRow => ({ kind: 'only-a', a: i, b: null })),
      ...Array.from({ length: m }, (_, j): AlignedRow => ({ kind: 'only-b', a: null, b: j })),
    ];
  }
  // The rows in order, counted as they are made: a million of them is work for several slices.
  const rows: AlignedRow[] = new Array(head + inner.length + tail);
  let same = head + tail;
  let firstDivergence = -1;
  for (let i = 0; i < head; i++) {
    rows[i] = { kind: 'same', a: i, b: i };
    if (i % ROWS_PER_YIELD === 0) yield 0.9;
  }
  for (let k = 0; k < inner.length; k++) {
    const r = inner[k] as AlignedRow;
    rows[head + k] = head === 0 ? r : shifted(r, head);
    if (r.kind === 'same') same++;
    else if (firstDivergence < 0) firstDivergence = head + k;
    if (k % ROWS_PER_YIELD === 0) yield 0.9;
  }
  for (let k = 0; k < tail; k++) {
    rows[head + inner.length + k] = { kind: 'same', a: head + n + k, b: head + m + k };
    if (k % ROWS_PER_YIELD === 0) yield 0.9;
  }
  return { rows, cost: rows.length - same, same, firstDivergence, gaveUp };
}

/** The part between the shared ends: calls as key and tool numbers. */
interface Middle {
  n: number;
  m: number;
  keyA: Int32Array;
  keyB: Int32Array;
  toolA: Int32Array;
  toolB: Int32Array;
}

function shifted(r: AlignedRow, by: number): AlignedRow {
  if (r.kind === 'only-a') return { kind: 'only-a', a: r.a + by, b: null };
  if (r.kind === 'only-b') return { kind: 'only-b', a: null, b: r.b + by };
  return { kind: r.kind, a: r.a + by, b: r.b + by };
}

/** The cost of putting A's call i and B's call j on one row; Infinity when they may not share one. */
function pairCost(x: Middle, i: number, j: number): number {
  if (x.keyA[i] === x.keyB[j]) return 0;
  return x.toolA[i] === x.toolB[j] ? 1 : Number.POSITIVE_INFINITY;
}

function* alignTable(x: Middle): Pass<AlignedRow[]> {
  const { n, m } = x;
  const w = m + 1;
  // Costs are whole numbers up to n + m (a pair of different tools is never stored: a gap is cheaper).
  const d = new Int32Array((n + 1) * w);
  for (let i = 0; i <= n; i++) d[i * w] = i;
  for (let j = 0; j <= m; j++) d[j] = j;
  let cells = 0;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const diag = (d[(i - 1) * w + j - 1] ?? 0) + pairCost(x, i - 1, j - 1);
      const up = (d[(i - 1) * w + j] ?? 0) + 1;
      const left = (d[i * w + j - 1] ?? 0) + 1;
      d[i * w + j] = Math.min(diag, up, left);
    }
    cells += m;
    if (cells >= CELLS_PER_YIELD) {
      cells = 0;
      yield 0.6 + (0.2 * i) / n;
    }
  }
  // Walk back from the end; the preference order (pair, A's gap, B's gap) is the tie-break.
  const out: AlignedRow[] = [];
  let i = n;
  let j = m;
  for (let walked = 1; i > 0 || j > 0; walked++) {
    if (walked % ROWS_PER_YIELD === 0) yield 0.8;
    const here = d[i * w + j] ?? 0;
    if (i > 0 && j > 0) {
      const c = pairCost(x, i - 1, j - 1);
      if (c !== Number.POSITIVE_INFINITY && here === (d[(i - 1) * w + j - 1] ?? 0) + c) {
        out.push({ kind: c === 0 ? 'same' : 'changed', a: i - 1, b: j - 1 });
        i--;
        j--;
        continue;
      }
    }
    if (j > 0 && (i === 0 || here === (d[i * w + j - 1] ?? 0) + 1)) {
      out.push({ kind: 'only-b', a: null, b: j - 1 });
      j--;
    } else {
      out.push({ kind: 'only-a', a: i - 1, b: null });
      i--;
    }
  }
  return out.reverse();
}

/** A linear-space diff of the middles' keys, or null when they differ by more than MAX_LARGE_EDITS calls. */
function alignLarge(x: Middle): AlignedRow[] | null {
  const changes = diffArrays(Array.from(x.keyA), Array.from(x.keyB), { maxEditLength: MAX_LARGE_EDITS });
  if (!changes) return null;
  const out: AlignedRow[] = [];
  let i = 0;
  let j = 0;
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    for (let k = 0; k < count; k++) {
      if (change.added) out.push({ kind: 'only-b', a: null, b: j++ });
      else if (change.removed) out.push({ kind: 'only-a', a: i++, b: null });
      else out.push({ kind: 'same', a: i++, b: j++ });
    }
  }
  return out;
}
