import type { Rollout } from '../format';
import { rewardExpected, terminationInfo } from './termination';
import { firstFinishStep } from './timeline';

/*
 * Auditing a grader decision (shared/trajectory-format.md §3, §4): is the recorded reward what the
 * verdict gives under the task's contract, do the verdict and the submission agree, and is the artifact
 * the one the digest names. Pure: the digest itself is computed by the caller (SubtleCrypto in a page).
 */

export type CheckStatus = 'ok' | 'problem' | 'unknown' | 'not-applicable';

export type AuditCheckId = 'reward-verdict' | 'excluded-reward' | 'verdict-without-finish' | 'finish-without-verdict';

export interface AuditCheck {
  id: AuditCheckId;
  status: CheckStatus;
  /** What is checked, in a few words. */
  title: string;
  /** What was found, in one sentence a person can act on. */
  detail: string;
}

/**
 * The terminal-reward contract of the design article and the demo tasks: a normal submission is worth 1
 * when the private verdict is pass and 0 when it is fail; running out of budget is worth 0. Anything else
 * (a verdict of `error`, an invalid call, a verdict the article does not name) has no rule here, and the
 * audit says "contract unknown" instead of guessing.
 */
export const DEMO_CONTRACT = { pass: 1, fail: 0, budget_exhausted: 0 } as const;

export const CONTRACT_TEXT = 'pass → 1, fail → 0, budget exhausted → 0';

/** The reward the contract gives this rollout, or why it gives none. */
export function contractReward(
  record: Pick<Rollout, 'termination' | 'grading'>,
): { reward: number; rule: string } | { reward: null; why: string } {
  if (record.termination === 'budget_exhausted') return { reward: DEMO_CONTRACT.budget_exhausted, rule: 'budget exhausted → 0' };
  const verdict = record.grading?.verdict;
  if (verdict === 'pass') return { reward: DEMO_CONTRACT.pass, rule: 'verdict pass → 1' };
  if (verdict === 'fail') return { reward: DEMO_CONTRACT.fail, rule: 'verdict fail → 0' };
  if (verdict === undefined) {
    return record.termination === 'finished'
      ? { reward: null, why: 'no grader verdict to derive the reward from' }
      : { reward: null, why: `contract unknown for termination ${record.termination} without a verdict` };
  }
  return { reward: null, why: `contract unknown for verdict "${verdict}"` };
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Number(n.toFixed(4)));
}

function rewardText(reward: number | null | undefined): string {
  return typeof reward === 'number' ? `reward ${formatNumber(reward)}` : 'no reward';
}

function rewardVerdictCheck(record: Rollout): AuditCheck {
  const title = `Reward under the contract (${CONTRACT_TEXT})`;
  const info = terminationInfo(record.termination);
  if (!info.inSignal) {
    return {
      id: 'reward-verdict',
      status: 'not-applicable',
      title,
      detail: `${info.label}: excluded from the policy signal, so no reward is due.`,
    };
  }
  const expected = contractReward(record);
  if (expected.reward === null) {
    return { id: 'reward-verdict', status: 'unknown', title, detail: `${rewardText(record.reward)}: ${expected.why}.` };
  }
  if (typeof record.reward !== 'number') {
    return { id: 'reward-verdict', status: 'problem', title, detail: `No reward recorded, but ${expected.rule}.` };
  }
  if (record.reward === expected.reward) {
    return { id: 'reward-verdict', status: 'ok', title, detail: `${rewardText(record.reward)} agrees: ${expected.rule}.` };
  }
  return {
    id: 'reward-verdict',
    status: 'problem',
    title,
    detail: `${rewardText(record.reward)} disagrees with the contract: ${expected.rule}.`,
  };
}

function excludedRewardCheck(record: Rollout): AuditCheck {
  const title = 'Excluded termination carries no reward';
  const expected = rewardExpected(record.termination);
  const hasReward = typeof record.reward === 'number';
  if (expected === true) {
    return {
      id: 'excluded-reward',
      status: 'not-applicable',
      title,
      detail: `${record.termination} is in the policy signal: a reward is expected.`,
    };
  }
  if (expected === null) {
    return {
      id: 'excluded-reward',
      status: hasReward ? 'unknown' : 'ok',
      title,
      detail: hasReward
        ? `Unknown termination "${record.termination}" is left out of the signal, yet carries ${rewardText(record.reward)}.`
        : `Unknown termination "${record.termination}" is left out of the signal and carries no reward.`,
    };
  }
  return hasReward
    ? {
        id: 'excluded-reward',
        status: 'problem',
        title,
        detail: `${record.termination} carries ${rewardText(record.reward)}: an excluded rollout must have a null reward (E_EXCLUDED_HAS_REWARD).`,
      }
    : { id: 'excluded-reward', status: 'ok', title, detail: `${record.termination} carries no reward, as an excluded rollout should.` };
}

function verdictWithoutFinishCheck(record: Rollout, finish: number | null): AuditCheck {
  const title = 'A verdict follows a finish step';
  const verdict = record.grading?.verdict;
  if (verdict === undefined) return { id: 'verdict-without-finish', status: 'not-applicable', title, detail: 'No verdict recorded.' };
  if (record.steps === undefined) {
    return {
      id: 'verdict-without-finish',
      status: 'unknown',
      title,
      detail: `Verdict ${verdict}, but the record has no steps to show a finish.`,
    };
  }
  if (finish !== null)
    return { id: 'verdict-without-finish', status: 'ok', title, detail: `Verdict ${verdict} grades the finish at step ${finish}.` };
  return {
    id: 'verdict-without-finish',
    status: 'problem',
    title,
    detail: `Verdict ${verdict}, but no finish step: the grader scored an artifact the model never submitted.`,
  };
}

function finishWithoutVerdictCheck(record: Rollout, finish: number | null): AuditCheck {
  const title = 'A finish step is graded';
  if (finish === null) return { id: 'finish-without-verdict', status: 'not-applicable', title, detail: 'No finish step.' };
  const verdict = record.grading?.verdict;
  if (verdict !== undefined)
    return { id: 'finish-without-verdict', status: 'ok', title, detail: `The finish at step ${finish} has verdict ${verdict}.` };
  const info = terminationInfo(record.termination);
  if (!info.inSignal) {
    return {
      id: 'finish-without-verdict',
      status: 'ok',
      title,
      detail: `The finish at step ${finish} has no verdict, and the rollout is excluded (${info.label}): consistent with grading that never completed.`,
    };
  }
  return {
    id: 'finish-without-verdict',
    status: 'problem',
    title,
    detail: `The finish at step ${finish} has no verdict, yet the rollout is in the policy signal with ${rewardText(record.reward)}.`,
  };
}

/** The four consistency checks of a grader decision, in the order the audit view lists them. */
export function auditChecks(record: Rollout): AuditCheck[] {
  const finish = firstFinishStep(record);
  return [
    rewardVerdictCheck(record),
    excludedRewardCheck(record),
    verdictWithoutFinishCheck(record, finish),
    finishWithoutVerdictCheck(record, finish),
  ];
}

// ---------------------------------------------------------------------------------------------------
// Artifact digest

export type RecordedDigest =
  | { kind: 'absent' }
  | { kind: 'sha256'; hex: string; prefixed: boolean }
  | { kind: 'unrecognised'; text: string };

/**
 * Reads a recorded `artifact_digest`: `sha256:<64 hex>` or bare 64 hex, any case. Anything else (another
 * algorithm, a truncated digest) is unrecognised: shown as it is, never compared.
 */
export function normalizeDigest(recorded: string | null | undefined): RecordedDigest {
  if (recorded === undefined || recorded === null || recorded.trim() === '') return { kind: 'absent' };
  const text = recorded.trim();
  const m = /^(sha-?256:)?([0-9a-f]{64})$/i.exec(text);
  if (!m?.[2]) return { kind: 'unrecognised', text };
  return { kind: 'sha256', hex: m[2].toLowerCase(), prefixed: m[1] !== undefined };
}

export type DigestComparison =
  | { status: 'match'; hex: string }
  | { status: 'mismatch'; recorded: string; computed: string }
  | { status: 'absent'; computed: string }
  | { status: 'unrecognised'; recorded: string; computed: string };

/** Compares the recorded digest with the one computed from the artifact (lower-case hex). */
export function compareDigest(recorded: string | null | undefined, computedHex: string): DigestComparison {
  const computed = computedHex.toLowerCase();
  const r = normalizeDigest(recorded);
  if (r.kind === 'absent') return { status: 'absent', computed };
  if (r.kind === 'unrecognised') return { status: 'unrecognised', recorded: r.text, computed };
  return r.hex === computed ? { status: 'match', hex: computed } : { status: 'mismatch', recorded: r.hex, computed };
}

/** Lower-case hex of bytes, as `sha256sum` prints. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Tests: what the model saw against what the grader found

export interface DevTests {
  /** 1-based step number of the last `run_tests` step. */
  step: number;
  /** null when that step recorded no `tests` object (for example a killed test process). */
  passed: string[] | null;
  failed: string[];
  overBudget: string[];
}

/** The public dev-test results of the last `run_tests` step: the last test evidence the model saw. */
export function lastDevTests(record: Pick<Rollout, 'steps'>): DevTests | null {
  const steps = record.steps ?? [];
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i];
    if (s?.tool !== 'run_tests') continue;
    if (!s.tests) return { step: i + 1, passed: null, failed: [], overBudget: [] };
    return { step: i + 1, passed: s.tests.passed ?? [], failed: s.tests.failed ?? [], overBudget: s.tests.over_budget ?? [] };
  }
  return null;
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

export type TestContrast =
  | { kind: 'dev-pass-private-fail'; message: string }
  | { kind: 'dev-fail-private-pass'; message: string }
  | { kind: 'agree'; message: string }
  | { kind: 'incomplete'; message: string };

function devAllPass(dev: DevTests): boolean {
  return dev.passed !== null && dev.passed.length > 0 && dev.failed.length === 0 && dev.overBudget.length === 0;
}

/**
 * Whether the last public dev tests and the private verdict tell the same story. The case worth a loud
 * flag is "dev tests passed, private verdict failed": the model had every visible reason to think it was
 * done, and only the grader knew otherwise.
 */
export function testContrast(record: Pick<Rollout, 'steps' | 'grading'>): TestContrast {
  const dev = lastDevTests(record);
  const verdict = record.grading?.verdict;
  const priv = privateTests(record);
  const privateFailed = verdict === 'fail' || (priv?.failed ?? 0) > 0;
  const privatePassed = verdict === 'pass' || (verdict === undefined && priv !== null && priv.failed === 0 && (priv.passed ?? 0) > 0);
  if (dev === null || dev.passed === null) {
    return {
      kind: 'incomplete',
      message: dev === null ? 'The model never ran the dev tests.' : `The last run_tests (step ${dev.step}) recorded no results.`,
    };
  }
  if (verdict === undefined && priv === null) return { kind: 'incomplete', message: 'No private verdict to compare with.' };
  const devPass = devAllPass(dev);
  if (devPass && privateFailed) {
    return {
      kind: 'dev-pass-private-fail',
      message: `Dev tests passed (step ${dev.step}), private verdict failed: the public tests did not catch what the private ones did.`,
    };
  }
  if (!devPass && privatePassed) {
    return { kind: 'dev-fail-private-pass', message: `Dev tests did not all pass (step ${dev.step}), yet the private verdict passed.` };
  }
  return { kind: 'agree', message: devPass ? 'Dev tests and private verdict both passed.' : 'Dev tests and private verdict both failed.' };
}

// ---------------------------------------------------------------------------------------------------
// Process scores

export interface ProcessScoreRow {
  /** 1-based step, or null for scores that name no step. */
  step: number | null;
  /** The step's tool, or null when the step does not exist (or no step was named). */
  tool: string | null;
  /** `steps[i].process_reward`, when recorded. */
  processReward: number | null;
  /** `grading.process_scores` entries naming this step, in file order. */
  scores: Array<{ name: string | null; value: number | null }>;
  /** The score names a step number the record does not have. */
  missingStep: boolean;
}

/**
 * Per-step process scores from both places the format keeps them: each step's `process_reward` and the
 * grader's `process_scores`. One row per step that has either, in step order; scores naming no step come
 * last, and scores naming a step that does not exist are kept and marked.
 */
export function processScoreRows(record: Pick<Rollout, 'steps' | 'grading'>): ProcessScoreRow[] {
  const steps = record.steps ?? [];
  const rows = new Map<number | null, ProcessScoreRow>();
  const row = (step: number | null): ProcessScoreRow => {
    let r = rows.get(step);
    if (!r) {
      const s = step === null ? undefined : steps[step - 1];
      r = { step, tool: s?.tool ?? null, processReward: null, scores: [], missingStep: step !== null && s === undefined };
      rows.set(step, r);
    }
    return r;
  };
  steps.forEach((s, i) => {
    if (s.process_reward !== undefined) row(i + 1).processReward = s.process_reward;
  });
  for (const p of record.grading?.process_scores ?? []) row(p.step ?? null).scores.push({ name: p.name ?? null, value: p.value ?? null });
  return [...rows.values()].sort((a, b) => (a.step ?? Number.POSITIVE_INFINITY) - (b.step ?? Number.POSITIVE_INFINITY));
}

/** Grader name and version from `grading.grader`, else the record's `grader`; `differs` when both exist and disagree. */
export function graderIdentity(record: Pick<Rollout, 'grader' | 'grading'>): {
  name: string | null;
  version: string | null;
  differs: boolean;
} {
  const inGrading = record.grading?.grader;
  const top = record.grader;
  const g = inGrading ?? top;
  const differs = inGrading !== undefined && top !== undefined && (inGrading.name !== top.name || inGrading.version !== top.version);
  return { name: g?.name ?? null, version: g?.version ?? null, differs };
}
