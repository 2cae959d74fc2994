import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildChain, buildRollout, FULL_METADATA } from '../testing/builders';
import { edited, paths } from '../testing/edits';
import { isPlainValid } from './fastCheck';
import { v1Schema } from './schema';

/** A rich valid record: every recognised field present, so mutations reach all of them. */
const rich = {
  ...buildRollout({
    ...buildChain([{ tool: 'read_file' }, { tool: 'run_tests', tests: { passed: ['a'], failed: [], over_budget: ['b'] } }]),
    budget: { max_actions: 10, actions_used: 2 },
    task: { prompt: 'p', contract: 'c' },
    grading: {
      verdict: 'pass',
      private_tests: { passed: 3, failed: ['x'] },
      artifact: 'diff',
      artifact_digest: 'sha256:0',
      process_scores: [{ step: 1, name: 'n', value: 0.5 }],
      grader: { name: 'g', version: '1' },
    },
    training: {
      sequence_ids: [1, 2, 3],
      loss_mask: [0, 1, 1],
      logprobs: [null, -0.1, -0.2],
      update: { step: 2, policy_version: 'v-0002', advantage: -0.5, tokens: 2, clipped: 0 },
    },
    started_at: '2026-01-01T00:00:00Z',
    transcript: [{ role: 'user', content: 'hi', tool_calls: [{ id: 'c', name: 'f', arguments: '{}' }] }],
    ...FULL_METADATA,
  }),
  custom: { anything: [1, 'x'] },
};

describe('isPlainValid', () => {
  it('accepts valid records, and zod returns them unchanged', () => {
    expect(isPlainValid(rich)).toBe(true);
    expect(v1Schema().rollout.parse(rich)).toEqual(rich);
  });

  it('accepts every demo record (the fast path is the common path)', () => {
    const lines = readFileSync(new URL('../../public/demo/rollouts.jsonl', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean);
    for (const l of lines) expect(isPlainValid(JSON.parse(l))).toBe(true);
  });

  it('is never looser than the schema: whatever it accepts, zod accepts and returns unchanged', () => {
    const allPaths = paths(rich);
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -3, max: 3 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string({ maxLength: 3 }),
      fc.constant([]),
      fc.constant([1.5]),
      fc.constant(['a']),
      fc.constant({}),
      fc.constant({ __proto__: null, x: 1 }),
      fc.constant(JSON.parse('{"__proto__": {"x": 1}}')),
    );
    fc.assert(
      fc.property(edited(rich, allPaths, value), (x) => {
        if (x === undefined) return;
        if (isPlainValid(x)) {
          const z = v1Schema().rollout.safeParse(x);
          expect(z.success).toBe(true);
          expect(z.data).toEqual(x);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
