import { describe, expect, it } from 'vitest';
import type { Step } from '../format';
import { buggyReward } from './rewardBugs';

function run(passed: string[], failed: string[], over_budget: string[] = []): Step {
  return {
    tool_call_id: 'c',
    tool: 'run_tests',
    args: {},
    observation: { text: '', status: 'ok', truncated: false },
    tests: { passed, failed, over_budget },
  };
}

describe('buggyReward', () => {
  it('inverted: flips the verdict', () => {
    expect([buggyReward('inverted', true, []), buggyReward('inverted', false, [])]).toEqual([0, 1]);
  });

  it('public-tests: follows the last public test run, whatever the private verdict says', () => {
    const green = run(['a', 'b'], []);
    const red = run(['a'], ['b']);
    expect(buggyReward('public-tests', false, [red, green])).toBe(1);
    expect(buggyReward('public-tests', true, [green, red])).toBe(0);
    expect(buggyReward('public-tests', true, [run(['a'], [], ['b'])])).toBe(0);
    expect(buggyReward('public-tests', true, [])).toBe(0);
  });
});
