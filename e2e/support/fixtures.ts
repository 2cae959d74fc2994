/*
 * Test files built with the typed builders, so each fixture states only what the test is about.
 * Line numbers below are 1-based, as the problems panel shows them.
 */
import { buildChain, buildRollout, toJsonl } from '../../src/testing/builders';

/** A file with good rollouts and, between them, bad lines at known line numbers. */
export const MIXED = {
  name: 'mixed.jsonl',
  text: toJsonl([
    buildRollout({ rollout_id: 'r-001', task_id: 'binary-search', group_id: 'binary-search@v-1', reward: 1 }),
    buildRollout({
      rollout_id: 'r-002',
      task_id: 'binary-search',
      group_id: 'binary-search@v-1',
      termination: 'budget_exhausted',
      reward: 0,
    }),
    '{"task_id": "binary-search", "rollout_id": ',
    buildRollout({ rollout_id: 'r-003', task_id: 'binary-search', group_id: 'binary-search@v-1', termination: 'invalid_call', reward: 0 }),
    '{"task_id":"binary-search","rollout_id":"r-no-segments"}',
    buildRollout({ rollout_id: 'r-004', task_id: 'parse-dates', group_id: 'parse-dates@v-1', termination: 'infra_failure', reward: null }),
    '',
    '[1, 2, 3]',
    buildRollout({ rollout_id: 'r-005', task_id: 'parse-dates', group_id: 'parse-dates@v-1', termination: 'cancelled', reward: null }),
    buildRollout({ rollout_id: 'r-006', task_id: 'parse-dates', group_id: 'parse-dates@v-1', reward: 0.5, ...positiveLogprobChain() }),
  ]),
  goodIds: ['r-001', 'r-002', 'r-003', 'r-004', 'r-005', 'r-006'],
  badLines: [
    { line: 3, code: 'E_PARSE' },
    { line: 5, code: 'E_SCHEMA' },
    { line: 8, code: 'E_PARSE' },
  ],
} as const;

/** Three steps whose second generation has a log-probability above 0: one E_LOGPROB_RANGE at segment 1. */
function positiveLogprobChain() {
  const chain = buildChain([{ tool: 'read_file' }, { tool: 'edit', args: { path: 'dates.py', old: 'a', new: 'b' } }, { tool: 'finish' }]);
  return { ...chain, segments: chain.segments.map((s, i) => (i === 1 ? { ...s, old_logprobs: [0.25, -0.5] } : s)) };
}

/** A small clean file; `prefix` keeps ids apart when several are opened together. */
export function cleanFile(name: string, prefix: string, count = 3): { name: string; text: string } {
  const records = Array.from({ length: count }, (_, i) =>
    buildRollout({ rollout_id: `${prefix}-${i + 1}`, task_id: `${prefix}-task`, reward: i % 2 }),
  );
  return { name, text: toJsonl(records) };
}

/** What `setFiles` takes: a file made in memory. */
export function payload(file: { name: string; text: string | Uint8Array }, mimeType = 'application/x-ndjson') {
  return { name: file.name, mimeType, buffer: Buffer.from(file.text) };
}
