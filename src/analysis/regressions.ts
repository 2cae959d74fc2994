import type { Rollout, Step } from '../format';
import type { Regression } from './types';

/** An edit counts as applied when its observation says ok or says nothing (§5). */
function applied(step: Step): boolean {
  const status = step.observation?.status;
  return status === undefined || status === 'ok';
}

function editArgs(step: Step): { path: unknown; old: unknown; new: unknown } | null {
  if (step.tool !== 'edit' || !step.args) return null;
  // A missing path matches a missing path: the design article's edits name no file.
  return { path: step.args.path ?? null, old: step.args.old, new: step.args.new };
}

/**
 * `revert`: an edit whose (old, new) is the (new, old) of an earlier applied edit on the same path.
 * `of_step` names the most recent such edit.
 */
function reverts(steps: Step[]): Regression[] {
  const out: Regression[] = [];
  steps.forEach((step, i) => {
    const e = editArgs(step);
    if (!e || typeof e.old !== 'string' || typeof e.new !== 'string') return;
    for (let j = i - 1; j >= 0; j--) {
      const prior = steps[j];
      const p = prior && editArgs(prior);
      if (prior && p && applied(prior) && p.path === e.path && p.old === e.new && p.new === e.old) {
        out.push({ step: i + 1, kind: 'revert', of_step: j + 1 });
        return;
      }
    }
  });
  return out;
}

/**
 * `test`: a dev test passed at one run_tests step (with a `tests` object) and failed or went over
 * budget at the next such step. The edits between the two runs are blamed; with no edit between,
 * the later run is marked `flaky`. A fix after which other tests still fail is not a regression:
 * only tests that went from passing to failing count.
 */
function testRegressions(steps: Step[]): Regression[] {
  const out: Regression[] = [];
  let prevRun: number | null = null;
  steps.forEach((step, i) => {
    if (step.tool !== 'run_tests' || !step.tests) return;
    if (prevRun !== null) {
      const before = new Set(steps[prevRun]?.tests?.passed ?? []);
      const now = new Set([...(step.tests.failed ?? []), ...(step.tests.over_budget ?? [])]);
      const broken = [...before].filter((t) => now.has(t));
      if (broken.length > 0) {
        const edits: number[] = [];
        for (let j = prevRun + 1; j < i; j++) if (steps[j]?.tool === 'edit') edits.push(j + 1);
        if (edits.length === 0) out.push({ step: i + 1, kind: 'flaky', tests: broken });
        for (const s of edits) out.push({ step: s, kind: 'test', tests: broken });
      }
    }
    prevRun = i;
  });
  return out;
}

/** Regressions of shared/trajectory-format.md §5, ordered by step. */
export function findRegressions(record: Rollout): Regression[] {
  const steps = record.steps ?? [];
  const all = [...reverts(steps), ...testRegressions(steps)];
  const kindOrder = { revert: 0, test: 1, flaky: 2 } as const;
  return all.sort((a, b) => a.step - b.step || kindOrder[a.kind] - kindOrder[b.kind]);
}
