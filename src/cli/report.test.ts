import { describe, expect, it } from 'vitest';
import type { LintReport, RolloutSummary } from '../analysis';
import { finding } from '../analysis/finding';
import { formatReport } from './report';

function rollout(rollout_id: string): RolloutSummary {
  return {
    file: 'chat.jsonl',
    line: 3,
    task_id: 't',
    rollout_id,
    attempt_id: null,
    group_id: 'g',
    termination: 'unknown',
    in_signal: false,
    reward: null,
    steps: 1,
    regressions: [],
    findings: [finding('W_UNKNOWN_TERMINATION', 'no status recorded')],
  };
}

const report = (r: RolloutSummary): LintReport => ({
  summary: { lines: 3, rollouts: 1, errors: 0, warnings: 1 },
  parse_errors: [],
  rollouts: [r],
  groups: [],
});

describe('formatReport', () => {
  it('names a rollout without an id of its own by its location once', () => {
    // Sources with no rollout id get file:line as the id (format/adapters/read.ts `locator`).
    const text = formatReport(report(rollout('chat.jsonl:3')), { color: false });
    expect(text).toContain('e.g. chat.jsonl:3: no status recorded');
    expect(text).not.toContain('chat.jsonl:3 chat.jsonl:3');
  });

  it('names a rollout with an id by location and id', () => {
    const text = formatReport(report(rollout('r-7')), { color: false });
    expect(text).toContain('e.g. chat.jsonl:3 r-7: no status recorded');
  });
});
