import type { Rollout } from '../format';

/* What the model saw against what the grader found: the last public dev tests and the private ones. */

export interface DevTests {
  /** 1-based step number of the last `run_tests` step. */
  step: number;
  /** null when that step recorded no `tests` object (for example a killed test process). */
  passed: string[] | null;
  failed: string[];
  overBudget: string[];
}

/**
 * The public dev-test results of the last `run_tests` step: the last test evidence the model saw.
 * `lastRunTests` (1-based), when the audit's pass over the steps found it already (auditSteps).
 */
export function lastDevTests(record: Pick<Rollout, 'steps'>, lastRunTests?: number | null): DevTests | null {
  const steps = record.steps ?? [];
  let i = lastRunTests === undefined ? steps.length - 1 : (lastRunTests ?? 0) - 1;
  while (i >= 0 && steps[i]?.tool !== 'run_tests') i--;
  const s = steps[i];
  if (!s) return null;
  if (!s.tests) return { step: i + 1, passed: null, failed: [], overBudget: [] };
  return { step: i + 1, passed: s.tests.passed ?? [], failed: s.tests.failed ?? [], overBudget: s.tests.over_budget ?? [] };
}

export interface PrivateTests {
  passed: number | null;
  failed: number | null;
  /** Names when the grader recorded them; null when it recorded counts only. */
  passedNames: string[] | null;
  failedNames: string[] | null;
}

type CountOrNames = number | string[] | undefined;

function count(v: CountOrNames): number | null {
  return v === undefined ? null : typeof v === 'number' ? v : v.length;
}

/** `grading.private_tests`, whose `passed`/`failed` are counts or lists of names; null when absent. */
export function privateTests(record: Pick<Rollout, 'grading'>): PrivateTests | null {
  const p = record.grading?.private_tests;
  if (!p) return null;
  return {
    passed: count(p.passed),
    failed: count(p.failed),
    passedNames: Array.isArray(p.passed) ? p.passed : null,
    failedNames: Array.isArray(p.failed) ? p.failed : null,
  };
}

/** Whether the last dev tests and the private verdict tell the same story; `step` is that run_tests step. */
export type TestContrast =
  | { kind: 'dev-pass-private-fail'; step: number }
  | { kind: 'dev-fail-private-pass'; step: number }
  | { kind: 'agree'; passed: boolean; step: number }
  | { kind: 'incomplete'; missing: 'dev-tests' | 'dev-results' | 'private-verdict'; step: number | null };

function devAllPass(dev: DevTests): boolean {
  return dev.passed !== null && dev.passed.length > 0 && dev.failed.length === 0 && dev.overBudget.length === 0;
}

/**
 * Whether the last public dev tests and the private verdict tell the same story. The case worth a loud
 * flag is "dev tests passed, private verdict failed": the model had every visible reason to think it was
 * done, and only the grader knew otherwise.
 */
export function testContrast(record: Pick<Rollout, 'steps' | 'grading'>, dev: DevTests | null = lastDevTests(record)): TestContrast {
  const verdict = record.grading?.verdict;
  const priv = privateTests(record);
  const privateFailed = verdict === 'fail' || (priv?.failed ?? 0) > 0;
  const privatePassed = verdict === 'pass' || (verdict === undefined && priv !== null && priv.failed === 0 && (priv.passed ?? 0) > 0);
  if (dev === null) return { kind: 'incomplete', missing: 'dev-tests', step: null };
  if (dev.passed === null) return { kind: 'incomplete', missing: 'dev-results', step: dev.step };
  if (verdict === undefined && priv === null) return { kind: 'incomplete', missing: 'private-verdict', step: dev.step };
  const devPass = devAllPass(dev);
  if (devPass && privateFailed) return { kind: 'dev-pass-private-fail', step: dev.step };
  if (!devPass && privatePassed) return { kind: 'dev-fail-private-pass', step: dev.step };
  return { kind: 'agree', passed: devPass, step: dev.step };
}
