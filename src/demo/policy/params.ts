import type { Observed } from './observe';
import type { Move } from './repertoire';
import type { PolicyWeights } from './weights';

/**
 * The policy's parameters: one log-weight per situation a move can be in. A move's logit in a context
 * is theta . phi(move, observed), where phi is a 0/1 vector that switches on the situations the move is
 * in (one, or two for an unapplied fix after a red test run). So exp(logit) is a product of weights, and
 * the hand-written tables of weights.ts are just points in this space (`paramsFromTable`).
 */
export const PARAM_NAMES = [
  'read.unread',
  'read.again',
  'readTests.unread',
  'readTests.again',
  'fix0.read',
  'fix1.read',
  'edit.blind',
  'edit.again',
  'fix.afterRedRun',
  'distractor.read',
  'revert',
  'revertDistractor.afterRedRun',
  'revert.stray',
  'runTests.afterEdit',
  'runTests.idle',
  'finish.afterGreenRun',
  'finish.early',
  'finish.untouched',
  'invalid',
] as const;

type ParamName = (typeof PARAM_NAMES)[number];
export const PARAM_COUNT = PARAM_NAMES.length;
const INDEX = new Map<string, number>(PARAM_NAMES.map((n, i) => [n, i]));

export interface PolicyParams {
  version: string;
  /** Log-weights, indexed as PARAM_NAMES. */
  theta: readonly number[];
}

function at(name: ParamName): number {
  return INDEX.get(name) ?? -1;
}

/** The situations `move` is in (indices into PARAM_NAMES): the features the policy reads from its context. */
export function moveFeatures(move: Move, o: Observed): number[] {
  const red = o.lastRun !== null && o.lastRun.failed + o.lastRun.overBudget > 0;
  const green = o.lastRun !== null && !red && o.editsSinceTest === 0;
  const anyApplied = Object.values(o.applied).some(Boolean);
  const k = move.key;
  if (k === 'read') return [at(o.readMain ? 'read.again' : 'read.unread')];
  if (k === 'read_tests') return [at(o.readMain ? 'readTests.again' : 'readTests.unread')];
  if (k === 'fix:0' || k === 'fix:1') {
    if (o.applied[k]) return [at('edit.again')];
    const base = at(o.readMain ? (k === 'fix:0' ? 'fix0.read' : 'fix1.read') : 'edit.blind');
    return red ? [base, at('fix.afterRedRun')] : [base];
  }
  if (k === 'distractor') return [at(o.applied[k] ? 'edit.again' : o.readMain ? 'distractor.read' : 'edit.blind')];
  if (k.startsWith('revert:')) {
    const target = k.slice('revert:'.length);
    if (!o.applied[target]) return [at('revert.stray')];
    return [at(target === 'distractor' && red && o.editsSinceTest === 0 ? 'revertDistractor.afterRedRun' : 'revert')];
  }
  if (k === 'run_tests') return [at(o.editsSinceTest > 0 ? 'runTests.afterEdit' : 'runTests.idle')];
  if (k === 'finish') return [at(green ? 'finish.afterGreenRun' : anyApplied ? 'finish.early' : 'finish.untouched')];
  return [at('invalid')];
}

/** theta . phi for a 0/1 feature vector given by its active indices. */
export function logitOf(features: readonly number[], theta: readonly number[]): number {
  let s = 0;
  for (const f of features) s += theta[f] ?? 0;
  return s;
}

/** The parameters at which exp(logit) is exactly the table's weight (up to rounding). */
export function paramsFromTable(w: PolicyWeights): PolicyParams {
  const table: Record<ParamName, number> = {
    'read.unread': w.read.unread,
    'read.again': w.read.again,
    'readTests.unread': w.readTests.unread,
    'readTests.again': w.readTests.again,
    'fix0.read': w.fix[0],
    'fix1.read': w.fix[1],
    'edit.blind': w.blind,
    'edit.again': w.again,
    'fix.afterRedRun': w.afterRedRun,
    'distractor.read': w.distractor,
    revert: w.revert,
    'revertDistractor.afterRedRun': w.revertDistractorAfterRedRun,
    'revert.stray': w.stray,
    'runTests.afterEdit': w.runTests.afterEdit,
    'runTests.idle': w.runTests.idle,
    'finish.afterGreenRun': w.finish.afterGreenRun,
    'finish.early': w.finish.early,
    'finish.untouched': w.finish.untouched,
    invalid: w.invalid,
  };
  return { version: w.version, theta: PARAM_NAMES.map((n) => Math.log(table[n])) };
}
