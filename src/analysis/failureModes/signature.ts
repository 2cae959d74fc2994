import type { Rollout, Step } from '../../format';
import type { RolloutSummary } from '../types';
import { maskLine } from './template';

/** A reward at or above this is full: the demo contract's pass, as `compare`'s PASS_REWARD. */
const FULL_REWARD = 1;

/** A failure keyword: the line of a long observation that is its message (the rest is context). */
const FAILING_LINE = /error|fail|exceed|over budget|timeout|timed out|killed|exception|traceback|denied|refused|invalid|not found|unknown/i;

/** The evidence a rollout's failure is told by, before its text becomes a template. */
interface Evidence {
  /** The tool whose observation it is, `grader` for the private verdict, `budget` for a spent budget, `none`. */
  source: string;
  /** One line: the failing line of the observation, or what the grader or budget says. */
  line: string;
}

/** The parts of a signature other than the template: what merging compares as a set. */
interface SignatureFacts {
  termination: string;
  /** The grader's verdict, or null when there is none. */
  verdict: string | null;
  lastTool: string | null;
  regressionKinds: string[];
  findingCodes: string[];
}

/** Whether a rollout counts as a failure: out of the signal, or rewarded below `FULL_REWARD`. */
function isFailure(summary: Pick<RolloutSummary, 'in_signal' | 'reward'>): boolean {
  return !summary.in_signal || summary.reward === null || summary.reward < FULL_REWARD;
}

function stepFailed(step: Step): boolean {
  const o = step.observation;
  if (o?.status !== undefined && o.status !== 'ok') return true;
  if (typeof o?.exit_code === 'number' && o.exit_code !== 0) return true;
  return (step.tests?.failed?.length ?? 0) > 0 || (step.tests?.over_budget?.length ?? 0) > 0;
}

/** Private tests are written as names or as a count. */
const countOf = (tests: number | readonly string[] | undefined) => (typeof tests === 'number' ? tests : tests?.length);

/** The line of an observation that says what went wrong: the first with a failure keyword, else the first. */
function failingLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.find((l) => FAILING_LINE.test(l)) ?? lines[0] ?? '';
}

/**
 * The last failing observation that was not recovered from: a failing step after which the same tool
 * never succeeded again. A test run that went red and then green is history, not the reason the rollout
 * failed; when nothing is left, the grader's verdict or the budget speaks instead.
 */
function evidenceOf(record: Rollout): Evidence {
  const steps = record.steps ?? [];
  const recovered = new Set<string>();
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i];
    if (!step) continue;
    if (!stepFailed(step)) {
      recovered.add(step.tool);
      continue;
    }
    if (recovered.has(step.tool)) continue;
    return { source: step.tool, line: failingLine(step.observation?.text ?? `${step.observation?.status ?? 'failed'}`) };
  }
  const grading = record.grading;
  if (grading?.verdict !== undefined && grading.verdict !== 'pass') {
    const failed = countOf(grading.private_tests?.failed);
    const total = failed === undefined ? undefined : failed + (countOf(grading.private_tests?.passed) ?? 0);
    return { source: 'grader', line: failed === undefined ? `verdict ${grading.verdict}` : `${failed} of ${total} private tests failed` };
  }
  const budget = record.budget;
  if (record.termination === 'budget_exhausted' && budget?.max_actions !== undefined) {
    return { source: 'budget', line: `${budget.actions_used ?? budget.max_actions} of ${budget.max_actions} actions used` };
  }
  return { source: 'none', line: 'no failing observation' };
}

/** The facts of a signature beside its evidence. */
function signatureFacts(record: Rollout, summary: Pick<RolloutSummary, 'termination' | 'regressions' | 'findings'>): SignatureFacts {
  const steps = record.steps ?? [];
  return {
    termination: summary.termination,
    verdict: record.grading?.verdict ?? null,
    lastTool: steps[steps.length - 1]?.tool ?? null,
    regressionKinds: [...new Set(summary.regressions.map((r) => r.kind))].sort(),
    findingCodes: [...new Set(summary.findings.map((f) => f.code))].sort(),
  };
}

/** The facts merging compares as a set (termination, verdict and evidence must be equal, not near). */
function softFeatures(facts: SignatureFacts): string[] {
  return [
    // Features are stored joined by spaces (the index's failure_features): a tool name keeps none.
    `last:${facts.lastTool?.replace(/\s+/g, '_') ?? '-'}`,
    ...facts.regressionKinds.map((k) => `regression:${k}`),
    ...facts.findingCodes.map((c) => `code:${c}`),
  ];
}

/**
 * A failing rollout's signature, as one rollout alone gives it (no other rollout is needed, so the
 * index's workers and the page's parse workers make it where the record is): the head of its mode's name
 * and its evidence line with the values masked. Merging signatures into modes (`FailureModes`) is the
 * cross-rollout step.
 */
export interface FailureSignature {
  /** `termination[ (verdict)] · source: masked line`; the run index's `failure_mode` column. */
  name: string;
  /** `softFeatures` of the facts: the index's `failure_features`, joined by spaces. */
  features: string[];
}

/** The head of a signature name: what ended it and where the evidence is; `splitSignature` reads it back. */
function signatureHead(termination: string, verdict: string | null, source: string): string {
  return `${termination}${verdict !== null && verdict !== 'pass' ? ` (${verdict})` : ''} · ${source}`;
}

/** The signature of a rollout that failed (`isFailure`), or null for one that earned its reward. */
export function failureSignature(record: Rollout, summary: Omit<RolloutSummary, 'failure'>): FailureSignature | null {
  if (!isFailure(summary)) return null;
  const evidence = evidenceOf(record);
  const facts = signatureFacts(record, summary);
  return {
    name: `${signatureHead(facts.termination, facts.verdict, evidence.source)}: ${maskLine(evidence.line)}`,
    features: softFeatures(facts),
  };
}

/**
 * A signature name's two parts: `head` (termination, verdict, source: equal within a mode) and `line`
 * (the masked evidence, which Drain generalises). Termination names and tool names hold no `: `.
 */
export function splitSignature(name: string): { head: string; line: string } {
  const at = name.indexOf(': ', Math.max(0, name.indexOf(' · ')));
  return at === -1 ? { head: name, line: '' } : { head: name.slice(0, at), line: name.slice(at + 2) };
}
