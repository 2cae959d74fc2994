import { describe, expect, it } from 'vitest';
import { buildChain } from '../testing/builders';
import { graderIdentity, processScoreRows } from './auditScores';

describe('processScoreRows', () => {
  it('joins step process_reward and grader process_scores by step, in step order', () => {
    const { steps } = buildChain([{ tool: 'read_file' }, { tool: 'edit', process_reward: 0.5 }, { tool: 'finish' }]);
    const rows = processScoreRows({
      steps,
      grading: {
        process_scores: [
          { step: 3, name: 'submitted', value: 1 },
          { step: 2, name: 'fixes a bug', value: 1 },
          { name: 'overall', value: 0.8 },
          { step: 9, name: 'ghost', value: 0 },
        ],
      },
    });
    expect(rows.map((r) => [r.step, r.tool, r.processReward, r.scores.map((s) => s.name), r.missingStep])).toEqual([
      [2, 'edit', 0.5, ['fixes a bug'], false],
      [3, 'finish', null, ['submitted'], false],
      [9, null, null, ['ghost'], true],
      [null, null, null, ['overall'], false],
    ]);
  });

  it('is empty when nothing is scored', () => {
    expect(processScoreRows({ steps: buildChain([{ tool: 'finish' }]).steps })).toEqual([]);
  });
});

describe('graderIdentity', () => {
  it('prefers grading.grader and notices a disagreement with the record’s grader', () => {
    expect(graderIdentity({ grader: { name: 'g', version: '1' } })).toEqual({ name: 'g', version: '1', differs: false });
    expect(graderIdentity({ grader: { name: 'g', version: '1' }, grading: { grader: { name: 'g', version: '2' } } })).toEqual({
      name: 'g',
      version: '2',
      differs: true,
    });
    expect(graderIdentity({})).toEqual({ name: null, version: null, differs: false });
  });
});
