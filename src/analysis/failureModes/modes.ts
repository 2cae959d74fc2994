import type { Rollout } from '../../format';
import type { RolloutSummary } from '../types';
import { evidenceOf, isFailure, type SignatureFacts, signatureFacts, softFeatures } from './signature';
import { TemplateMiner } from './template';

/**
 * Two signatures with the same termination, verdict, evidence source and template merge when the Jaccard
 * similarity of their other facts (last tool, regression kinds, finding codes) reaches this: one differing
 * fact out of two merges, a different last tool alone (1 shared of 3) does not.
 */
const MERGE_JACCARD = 0.5;
/** Rollout keys kept per mode. */
export const EXEMPLARS = 3;
/** Distinct tasks named per mode; rollouts of further tasks are counted in `other_tasks`. */
const MAX_TASKS = 50;
/** Modes kept; past it a new signature joins the nearest mode with its template (or the first mode made). */
const MAX_MODES = 1000;

interface ModeExemplar {
  key: string;
  file: string;
  line: number;
}

interface ModeStep {
  /** The training step, null for rollouts that carry none. */
  step: number | null;
  count: number;
  /** Every rollout read at that step, failing or not. */
  rollouts: number;
  share: number;
}

export interface FailureMode {
  /** `termination[ (verdict)] · source: template`, e.g. `budget_exhausted · run_tests: find <n>: over budget ...`. */
  name: string;
  termination: string;
  verdict: string | null;
  /** The evidence's tool, or `grader`, `budget`, `none` (see evidenceOf). */
  source: string;
  template: string;
  /** How many of the mode's rollouts have each fact merging compared as a set (near signatures differ in them). */
  last_tools: Record<string, number>;
  regression_kinds: Record<string, number>;
  finding_codes: Record<string, number>;
  count: number;
  /** Of every rollout read. */
  share: number;
  steps: ModeStep[];
  tasks: { task_id: string; count: number }[];
  other_tasks: number;
  exemplars: ModeExemplar[];
}

export interface FailureModesResult {
  rollouts: number;
  failures: number;
  /** Templates the miner holds: a measure of the memory, which grows with them and the modes, not rollouts. */
  templates: number;
  modes: FailureMode[];
}

interface Mode {
  facts: SignatureFacts;
  features: Set<string>;
  source: string;
  templateId: number;
  count: number;
  lastTools: Map<string, number>;
  regressionKinds: Map<string, number>;
  findingCodes: Map<string, number>;
  perStep: Map<number | null, number>;
  tasks: Map<string, number>;
  otherTasks: number;
  exemplars: ModeExemplar[];
}

function jaccard(a: ReadonlySet<string>, b: readonly string[]): number {
  const union = new Set([...a, ...b]);
  let shared = 0;
  for (const x of b) if (a.has(x)) shared++;
  return union.size === 0 ? 1 : shared / union.size;
}

const keyOf = (s: RolloutSummary) => (s.attempt_id === null ? s.rollout_id : `${s.rollout_id}#${s.attempt_id}`);

/**
 * Failure modes, streamed: `add` every rollout (failing or not: the shares are of all rollouts at a step),
 * then `result()`. Memory is the templates, the modes and per mode its steps, at most `MAX_TASKS` tasks and
 * `EXEMPLARS` keys: it does not grow with the number of rollouts (docs/failure-modes.md).
 */
export class FailureModes {
  private readonly miner = new TemplateMiner();
  /** By termination, verdict, evidence source and template: the modes that may merge. */
  private readonly buckets = new Map<string, Mode[]>();
  private readonly modes: Mode[] = [];
  private readonly stepTotals = new Map<number | null, number>();
  private rollouts = 0;
  private failures = 0;

  add(record: Rollout, summary: RolloutSummary): void {
    const step = trainingStepOf(record);
    this.rollouts++;
    this.stepTotals.set(step, (this.stepTotals.get(step) ?? 0) + 1);
    if (!isFailure(summary)) return;
    this.failures++;
    const evidence = evidenceOf(record);
    const template = this.miner.add(evidence.line);
    const facts = signatureFacts(record, summary);
    const mode = this.modeFor(facts, evidence.source, template.id);
    mode.count++;
    if (facts.lastTool !== null) bump(mode.lastTools, facts.lastTool);
    for (const k of facts.regressionKinds) bump(mode.regressionKinds, k);
    for (const c of facts.findingCodes) bump(mode.findingCodes, c);
    mode.perStep.set(step, (mode.perStep.get(step) ?? 0) + 1);
    const tasks = mode.tasks.get(summary.task_id);
    if (tasks !== undefined) mode.tasks.set(summary.task_id, tasks + 1);
    else if (mode.tasks.size < MAX_TASKS) mode.tasks.set(summary.task_id, 1);
    else mode.otherTasks++;
    if (mode.exemplars.length < EXEMPLARS) mode.exemplars.push({ key: keyOf(summary), file: summary.file, line: summary.line });
  }

  private modeFor(facts: SignatureFacts, source: string, templateId: number): Mode {
    const bucketKey = JSON.stringify([facts.termination, facts.verdict, source, templateId]);
    const bucket = this.buckets.get(bucketKey) ?? [];
    if (bucket.length === 0) this.buckets.set(bucketKey, bucket);
    const features = softFeatures(facts);
    let best: Mode | undefined;
    let bestSim = -1;
    for (const m of bucket) {
      const sim = jaccard(m.features, features);
      if (sim > bestSim) [best, bestSim] = [m, sim];
    }
    const full = this.modes.length >= MAX_MODES;
    if (best && (bestSim >= MERGE_JACCARD || full)) return best;
    if (full && this.modes[0]) return this.modes[0];
    const made: Mode = {
      facts,
      features: new Set(features),
      source,
      templateId,
      count: 0,
      lastTools: new Map(),
      regressionKinds: new Map(),
      findingCodes: new Map(),
      perStep: new Map(),
      tasks: new Map(),
      otherTasks: 0,
      exemplars: [],
    };
    bucket.push(made);
    this.modes.push(made);
    return made;
  }

  /** Modes ranked by count (then name), each with its share per training step (steps ascending, null last). */
  result(): FailureModesResult {
    const steps = [...this.stepTotals.keys()].sort(byStep);
    const modes = this.modes.map((m): FailureMode => {
      const template = this.miner.text(m.templateId);
      return {
        name: '',
        termination: m.facts.termination,
        verdict: m.facts.verdict,
        source: m.source,
        template,
        last_tools: sortedRecord(m.lastTools),
        regression_kinds: sortedRecord(m.regressionKinds),
        finding_codes: sortedRecord(m.findingCodes),
        count: m.count,
        share: m.count / this.rollouts,
        steps: steps.map((step) => {
          const rollouts = this.stepTotals.get(step) ?? 0;
          const count = m.perStep.get(step) ?? 0;
          return { step, count, rollouts, share: rollouts === 0 ? 0 : count / rollouts };
        }),
        tasks: [...m.tasks].map(([task_id, count]) => ({ task_id, count })).sort((a, b) => b.count - a.count || cmp(a.task_id, b.task_id)),
        other_tasks: m.otherTasks,
        exemplars: m.exemplars,
      };
    });
    for (const m of modes) m.name = modeName(m);
    modes.sort((a, b) => b.count - a.count || cmp(a.name, b.name));
    uniqueNames(modes);
    return { rollouts: this.rollouts, failures: this.failures, templates: this.miner.size, modes };
  }
}

/** `training_step` (trajectory-format.md §2) when it is a whole number >= 0; the schema keeps it as an extra field. */
function trainingStepOf(record: Rollout): number | null {
  const step: unknown = record.training_step;
  return typeof step === 'number' && Number.isSafeInteger(step) && step >= 0 ? step : null;
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

const sortedRecord = (counts: ReadonlyMap<string, number>) => Object.fromEntries([...counts].sort(([a], [b]) => cmp(a, b)));

/** The facts most of a mode's rollouts have: what its name may claim of all of them. */
const most = (counts: Record<string, number>, of: number) => Object.keys(counts).filter((k) => (counts[k] ?? 0) * 2 > of);

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function byStep(a: number | null, b: number | null): number {
  if (a === null) return b === null ? 0 : 1;
  return b === null ? -1 : a - b;
}

/**
 * A mode's readable name: what ended it, then the evidence as a template, then the last tool when it is
 * not the evidence's (a loop that stalled on reading) and the regression kinds, each when most of the
 * mode's rollouts have it. Two modes that would still
 * share a name (split by merging) add their finding codes, then a number.
 */
function modeName(m: FailureMode): string {
  const verdict = m.verdict !== null && m.verdict !== 'pass' ? ` (${m.verdict})` : '';
  const last = most(m.last_tools, m.count).filter((t) => t !== m.source && t !== 'finish');
  const regressions = most(m.regression_kinds, m.count);
  return [
    `${m.termination}${verdict} · ${m.source}: ${m.template}`,
    ...(last.length > 0 ? [`last ${last.join('/')}`] : []),
    ...(regressions.length > 0 ? [`regression ${regressions.join('/')}`] : []),
  ].join(' · ');
}

/** Names made unique, in rank order: the first keeps its name. */
function uniqueNames(modes: FailureMode[]): void {
  const seen = new Map<string, number>();
  for (const m of modes) {
    let name = m.name;
    const codes = most(m.finding_codes, m.count);
    if (seen.has(name) && codes.length > 0) name = `${name} · ${codes.join('/')}`;
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    m.name = n === 1 ? name : `${name} #${n}`;
  }
}
