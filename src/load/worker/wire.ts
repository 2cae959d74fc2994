import { type Finding, MANY_FINDINGS, type PackedFindings, packedBuffers, packFindings, unpackFindings } from '../../analysis';
import type { LoadResult } from '../loadState';

/**
 * A snapshot's result as the parse worker posts it: a rollout with more than MANY_FINDINGS findings
 * has them packed into columns (docs/adr/0019) and an empty `findings` in the report, by its index.
 */
export interface WireResult extends Omit<LoadResult, 'records'> {
  packed: [index: number, findings: PackedFindings][];
}

/**
 * Packs made so far, by the last finding of the array packed. A report's findings arrays are new for each
 * snapshot, but shallow copies of a summary's, which never changes once made: the same length, first and
 * last finding is the same array. (A rollout that becomes a duplicate gets a new first finding.)
 */
const made = new WeakMap<Finding, { length: number; first: Finding; pack: PackedFindings }>();

/** The findings packed, once per array: each snapshot then sends a copy (its buffers are transferred). */
function packOnce(findings: readonly Finding[]): PackedFindings | null {
  const first = findings[0] as Finding;
  const last = findings[findings.length - 1] as Finding;
  const kept = made.get(last);
  let pack = kept && kept.length === findings.length && kept.first === first ? kept.pack : null;
  if (!pack) {
    pack = packFindings(findings);
    if (!pack) return null;
    made.set(last, { length: findings.length, first, pack });
  }
  const { kind, step, segment, text, ends } = pack;
  return { ...pack, kind: kind.slice(), step: step.slice(), segment: segment.slice(), text: text.slice(), ends: ends.slice() };
}

/**
 * The worker's side: packs the findings of each rollout with many (a report's rollouts are copies, so
 * nothing of the lint state changes).
 */
export function toWire(result: Omit<LoadResult, 'records'>): { result: WireResult; transfer: ArrayBuffer[] } {
  const packed: WireResult['packed'] = [];
  const rollouts = result.report.rollouts.map((r, i) => {
    if (r.findings.length <= MANY_FINDINGS) return r;
    const p = packOnce(r.findings);
    if (!p) return r;
    packed.push([i, p]);
    return { ...r, findings: [] };
  });
  if (packed.length === 0) return { result: { ...result, packed }, transfer: [] };
  return {
    result: { ...result, report: { ...result.report, rollouts }, packed },
    transfer: packed.flatMap(([, p]) => packedBuffers(p)),
  };
}

/** The page's side: each packed rollout gets its findings back, read a chunk at a time. */
export function fromWire(wire: WireResult): Omit<LoadResult, 'records'> {
  const { packed, ...result } = wire;
  for (const [i, p] of packed) {
    const r = result.report.rollouts[i];
    if (r) result.report.rollouts[i] = { ...r, findings: unpackFindings(p) };
  }
  return result;
}
