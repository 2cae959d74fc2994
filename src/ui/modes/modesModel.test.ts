import { describe, expect, it } from 'vitest';
import { FailureModes, summarizeRollout } from '../../analysis';
import { buildRollout, buildStep } from '../../testing/builders';
import { CHARTED_MODES, MAX_CHART_POINTS, modeChartRows, modeTrend } from './modesModel';

/** Rollouts of `modes` kinds over `steps` steps: kind k fails in steps < steps - k, so each fades later than the last. */
function run(kinds: number, steps: number) {
  const modes = new FailureModes();
  let line = 0;
  for (let step = 0; step < steps; step++) {
    for (let k = 0; k < kinds; k++) {
      const fails = step < steps - k;
      const record = buildRollout({
        rollout_id: `r-${step}-${k}`,
        termination: 'finished',
        reward: fails ? 0 : 1,
        training_step: step,
        steps: [buildStep({ tool: `tool${k}`, observation: { status: fails ? 'error' : 'ok', text: `error kind${k} happened` } })],
      } as Parameters<typeof buildRollout>[0]);
      modes.add(record, summarizeRollout({ file: 'f.jsonl', line: ++line, record }));
    }
  }
  return modes.result();
}

describe('modeChartRows', () => {
  it('gives each numbered step the share of its rollouts per charted mode, the rest summed as other', () => {
    const result = run(7, 10);
    const rows = modeChartRows(result);
    expect(rows).toHaveLength(10);
    expect(rows[0]?.rollouts).toBe(7);
    // Step 0: every kind fails; each mode is 1 of 7 rollouts, and the two past the charted five sum to 2/7.
    for (let k = 0; k < CHARTED_MODES; k++) expect(rows[0]?.[`m${k}`]).toBeCloseTo(1 / 7);
    expect(rows[0]?.other).toBeCloseTo(2 / 7);
    // Step 9: only kind 0 fails (9 < 10 - 0).
    const last = rows[9];
    const total = Object.entries(last ?? {})
      .filter(([k]) => k.startsWith('m') || k === 'other')
      .reduce((n, [, v]) => n + v, 0);
    expect(total).toBeCloseTo(1 / 7);
  });

  it('bins a long run to at most MAX_CHART_POINTS points, each the share over its bin', () => {
    const result = run(2, 450);
    const rows = modeChartRows(result);
    expect(rows.length).toBeLessThanOrEqual(MAX_CHART_POINTS);
    expect(rows[0]?.step).toBe(0);
    expect(rows[1]?.step).toBe(3);
    // Bin of steps 0-2: 6 rollouts, each kind failing in all three steps: 3 of 6 each.
    expect(rows[0]?.rollouts).toBe(6);
    expect(rows[0]?.m0).toBeCloseTo(0.5);
  });

  it('draws no trend from one step', () => {
    expect(modeChartRows(run(2, 1))).toEqual([]);
  });
});

describe('modeTrend', () => {
  it('compares the last third of the steps with the first', () => {
    const result = run(3, 9);
    // Kind 2 fails in steps 0-6: the first third (0-2) all, the last third (6-8) one of three.
    const mode = result.modes.find((m) => m.source === 'tool2');
    expect(mode && modeTrend(mode)).toEqual({ early: 1 / 3, late: 1 / 9 });
  });
});
