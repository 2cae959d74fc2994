import { diffArrays } from 'diff';
import { stableStringify } from '../../format';

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
  /** Index in `rows` of the first row that is not `same`; -1 when the sequences are identical. */
  firstDivergence: number;
}

/** Past this many table cells (n × m) the alignment falls back to diffArrays' linear-space LCS. */
const MAX_CELLS = 4_000_000;

const callKey = (c: Call) => `${c.tool}\u0000${stableStringify(c.args ?? {})}`;

/** The cost of putting a and b on one row; Infinity when they may not share one. */
function pairCost(a: Call, b: Call, ka: string, kb: string): number {
  if (ka === kb) return 0;
  return a.tool === b.tool ? 1 : Number.POSITIVE_INFINITY;
}

export function alignCalls(a: readonly Call[], b: readonly Call[]): Alignment {
  const rows = (a.length + 1) * (b.length + 1) > MAX_CELLS ? alignLarge(a, b) : alignTable(a, b);
  const cost = rows.reduce((n, r) => n + (r.kind === 'same' ? 0 : 1), 0);
  return { rows, cost, firstDivergence: rows.findIndex((r) => r.kind !== 'same') };
}

function alignTable(a: readonly Call[], b: readonly Call[]): AlignedRow[] {
  const n = a.length;
  const m = b.length;
  const ka = a.map(callKey);
  const kb = b.map(callKey);
  const w = m + 1;
  const d = new Float64Array((n + 1) * w);
  for (let i = 0; i <= n; i++) d[i * w] = i;
  for (let j = 0; j <= m; j++) d[j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const diag = (d[(i - 1) * w + j - 1] ?? 0) + pairCost(a[i - 1] as Call, b[j - 1] as Call, ka[i - 1] ?? '', kb[j - 1] ?? '');
      const up = (d[(i - 1) * w + j] ?? 0) + 1;
      const left = (d[i * w + j - 1] ?? 0) + 1;
      d[i * w + j] = Math.min(diag, up, left);
    }
  }
  // Walk back from the end; the preference order (pair, A's gap, B's gap) is the tie-break.
  const out: AlignedRow[] = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = d[i * w + j] ?? 0;
    if (i > 0 && j > 0) {
      const c = pairCost(a[i - 1] as Call, b[j - 1] as Call, ka[i - 1] ?? '', kb[j - 1] ?? '');
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

function alignLarge(a: readonly Call[], b: readonly Call[]): AlignedRow[] {
  const out: AlignedRow[] = [];
  let i = 0;
  let j = 0;
  for (const change of diffArrays(a.map(callKey), b.map(callKey))) {
    const count = change.count ?? change.value.length;
    for (let k = 0; k < count; k++) {
      if (change.added) out.push({ kind: 'only-b', a: null, b: j++ });
      else if (change.removed) out.push({ kind: 'only-a', a: i++, b: null });
      else out.push({ kind: 'same', a: i++, b: j++ });
    }
  }
  return out;
}
