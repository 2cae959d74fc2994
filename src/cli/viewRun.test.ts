import { describe, expect, it } from 'vitest';
import { GrowthLog } from './viewRun';

describe('GrowthLog', () => {
  it('sums a live run’s index updates into one line per 10 s, not a line per rollout (issue 31)', () => {
    const lines: string[] = [];
    let t = 0;
    const g = new GrowthLog(
      (s) => lines.push(s),
      () => t,
    );
    g.at(100);
    for (let i = 1; i <= 30; i++) {
      t += 300;
      g.grew(100 + i);
      g.at(100 + i);
      if (i % 3 === 0) g.tick();
    }
    // 30 updates over 9 s: nothing said yet.
    expect(lines).toEqual([]);
    // 10 s after the first unsaid update: one line for all of them.
    t += 1_500;
    g.tick();
    expect(lines).toEqual(['+30 rollouts in 30 updates of the index (130 rollouts now)']);
    g.tick();
    g.flush();
    expect(lines).toHaveLength(1);
    t += 500;
    g.grew(131);
    g.flush();
    expect(lines[1]).toBe('+1 rollout in 1 update of the index (131 rollouts now)');
  });
});
