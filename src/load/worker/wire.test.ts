import { describe, expect, it } from 'vitest';
import { groupFindings, isChunked, MANY_FINDINGS, severityCounts } from '../../analysis';
import { buildRollout, toJsonl } from '../../testing/builders';
import { loadedDataset } from '../dataset/loadedDataset';
import { LoadState } from '../loadState';
import { fromWire, toWire } from './wire';

describe('toWire / fromWire', () => {
  it('packs a rollout with many findings for the trip to the page, which reads them back unchanged', () => {
    const state = new LoadState();
    const src = state.addSource('huge.jsonl');
    // A step per finding (W_ORPHAN_CALL: no generation behind it), as in the 1,000,000-step probe.
    const steps = Array.from({ length: MANY_FINDINGS + 5 }, (_, i) => ({ tool_call_id: `s-${i}`, tool: 'run_tests', args: {} }));
    state.push(
      src,
      new TextEncoder().encode(toJsonl([buildRollout({ rollout_id: 'huge', steps }), buildRollout({ rollout_id: 'small' })])),
    );
    state.end(src);
    const summary = state.summary();
    const { result, transfer } = toWire(summary);
    expect(result.packed.map(([i]) => i)).toEqual([0]);
    expect(result.report.rollouts[0]?.findings).toEqual([]);
    expect(result.report.rollouts[1]).toBe(summary.report.rollouts[1]);
    // The worker's own report is not changed by packing.
    expect(summary.report.rollouts[0]?.findings.length).toBeGreaterThan(MANY_FINDINGS);
    expect(transfer.length).toBe(5);

    const received = structuredClone(result, { transfer });
    const groups = received.packed[0]?.[1].groups;
    const counts = received.packed[0]?.[1].counts;
    const page = loadedDataset({ ...fromWire(received), records: [] });
    const [huge, small] = page.rows;
    if (!huge || !small) throw new Error('rows missing');
    expect(isChunked(huge.findings)).toBe(true);
    expect(isChunked(small.findings)).toBe(false);
    expect([...huge.findings]).toEqual(state.summary().report.rollouts[0]?.findings);
    // The worker's groups and counts are the page's: no pass over the findings on first selection.
    expect(groupFindings(huge.findings)).toBe(groups);
    expect(severityCounts(huge.findings)).toBe(counts);
    expect(counts).toEqual({ errors: 0, warnings: huge.findings.length });
  });

  it('sends a report with no rollout of many findings as it is, with nothing to transfer', () => {
    const state = new LoadState();
    const src = state.addSource('small.jsonl');
    state.push(src, new TextEncoder().encode(toJsonl([buildRollout({ rollout_id: 'a' })])));
    state.end(src);
    const summary = state.summary();
    const { result, transfer } = toWire(summary);
    expect(transfer).toEqual([]);
    expect(result.report).toBe(summary.report);
    expect(fromWire(structuredClone(result)).report).toEqual(summary.report);
  });

  it('packs a rollout once: a later snapshot sends a copy of the same pack, and a changed array is packed again', () => {
    const state = new LoadState();
    const src = state.addSource('huge.jsonl');
    const steps = Array.from({ length: MANY_FINDINGS + 5 }, (_, i) => ({ tool_call_id: `s-${i}`, tool: 'run_tests', args: {} }));
    state.push(src, new TextEncoder().encode(toJsonl([buildRollout({ rollout_id: 'huge', steps })])));
    state.end(src);
    const first = toWire(state.summary());
    const again = toWire(state.summary());
    const [a, b] = [first.result.packed[0]?.[1], again.result.packed[0]?.[1]];
    if (!a || !b) throw new Error('not packed');
    // The same groups object (packed once), in new buffers (each snapshot's are transferred away).
    expect(b.groups).toBe(a.groups);
    expect(b.text.buffer).not.toBe(a.text.buffer);
    expect(b).toEqual(a);
    // The same rollout again, as a duplicate: its findings gain an E_DUPLICATE_ROLLOUT first, so a new pack.
    state.push(src, new TextEncoder().encode(toJsonl([buildRollout({ rollout_id: 'huge', steps })])));
    state.end(src);
    const dup = toWire(state.summary()).result.packed[0]?.[1];
    expect(dup?.groups).not.toBe(a.groups);
    expect(dup?.groups[0]?.code).toBe('E_DUPLICATE_ROLLOUT');
    expect(dup?.length).toBe(a.length + 1);
  });
});
