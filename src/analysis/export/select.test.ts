import { describe, expect, it } from 'vitest';
import { buildFinding, buildRollout, buildStep, buildSummary } from '../../testing/builders';
import { parseQuery } from '../search/query';
import { rolloutSelector } from './select';

const record = buildRollout({ steps: [buildStep({ tool: 'edit', observation: { status: 'ok', text: 'patch applied' } })] });
const matches = (q: string, summary = buildSummary()) => rolloutSelector(parseQuery(q)).matches(summary, record);

describe('rolloutSelector', () => {
  it('chooses every rollout with the empty query', () => {
    expect(matches('')).toBe(true);
  });

  it('decides row clauses on the summary and content clauses on the record, all ANDed', () => {
    expect(matches('term:finished reward>0.5')).toBe(true);
    expect(matches('term:budget_exhausted')).toBe(false);
    expect(matches('code:W_HIT_MAX_TOKENS', buildSummary({ findings: [buildFinding('W_HIT_MAX_TOKENS')] }))).toBe(true);
    expect(matches('tool:edit "patch applied"')).toBe(true);
    expect(matches('tool:edit -"patch applied"')).toBe(false);
    expect(matches('tool:edit term:cancelled')).toBe(false);
  });
});
