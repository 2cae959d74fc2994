import type { Rollout } from '../../format';
import { printQuery } from '../search/query';
import type { RolloutSummary } from '../types';
import { type FailureSignature, splitSignature } from './signature';
import { TemplateMiner } from './template';

/**
 * Two signatures with the same termination, verdict, evidence source and template merge when the Jaccard
 * similarity of their other facts (last tool, regression kinds, finding codes) reaches this: one differing
 * fact out of two merges, a different last tool alone (1 shared of 3) does not.
 */
const MERGE_JACCARD = 0.5;
/** Distinct masked lines whose template is remembered (a few MB at most). */
const MAX_CACHED_LINES = 50_000;
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
  /**
   * The search query of its rollouts: `mode:` with the signature as a glob, each `<*>` of the template a `*`.
   * Modes split only by last tool or finding codes share it (a query reads the signature, not the merge).
   */
  query: string;
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

/**
 * One rollout as the modes read it: its signature (absent for a rollout that earned its reward), training
 * step, task and where it is. A record's summary gives it (`modeInputOf`), and so does a run index's row.
 */
export interface ModeInput {
  failure: FailureSignature | null | undefined;
  step: number | null;
  task_id: string;
  key: string;
  file: string;
  line: number;
}

interface Mode {
  head: { termination: string; verdict: string | null; source: string };
  headText: string;
  features: Set<string>;
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
  /**
   * One miner per signature head (termination, verdict, source): a line only ever generalises with lines
   * of its own head, so two sources' messages do not wildcard each other into `<*> <*> <*>` (they never
   * share a mode anyway).
   */
  private readonly miners = new Map<string, TemplateMiner>();
  /**
   * The template each distinct masked line joined: a line seen again is not mined again. A run repeats a
   * few hundred lines over a million rollouts, so this is what makes the page's modes cheap; it also keeps a
   * line in the template it first joined (Drain would re-match it against the template as generalised since).
   */
  private readonly templateOf = new Map<string, number>();
  /** By termination, verdict, evidence source and template: the modes that may merge. */
  private readonly buckets = new Map<string, Mode[]>();
  private readonly modes: Mode[] = [];
  private readonly stepTotals = new Map<number | null, number>();
  private rollouts = 0;
  private failures = 0;

  /** A record and its summary (`summarizeRollout`, which gives the signature). */
  add(record: Rollout, summary: RolloutSummary): void {
    this.addInput(modeInputOf(record, summary));
  }

  /**
   * `weight` rollouts that share this input's signature, step and task (a run's columns are counted before
   * they come here: a million rows are a few thousand inputs); the exemplar is the first of them.
   */
  addInput(input: ModeInput, weight = 1): void {
    const { step, failure } = input;
    this.rollouts += weight;
    this.stepTotals.set(step, (this.stepTotals.get(step) ?? 0) + weight);
    if (!failure) return;
    this.failures += weight;
    const mode = this.modeOf(failure, weight);
    mode.perStep.set(step, (mode.perStep.get(step) ?? 0) + weight);
    this.countTask(mode, input.task_id, weight);
    if (mode.exemplars.length < EXEMPLARS) mode.exemplars.push({ key: input.key, file: input.file, line: input.line });
  }

  /**
   * Many rollouts of one signature at once, as a run's columns count them: per training step and per task
   * (tasks in the order first seen), with up to EXEMPLARS of their keys. The same as adding them one by one
   * when groups come in the order of their first rollouts, but for which three exemplars a merged mode keeps.
   */
  addGroup(g: {
    failure: FailureSignature;
    steps: ReadonlyMap<number | null, number>;
    tasks: Iterable<readonly [string, number]>;
    exemplars: readonly ModeExemplar[];
  }): void {
    let total = 0;
    for (const [step, n] of g.steps) {
      total += n;
      this.stepTotals.set(step, (this.stepTotals.get(step) ?? 0) + n);
    }
    this.rollouts += total;
    this.failures += total;
    const mode = this.modeOf(g.failure, total);
    for (const [step, n] of g.steps) mode.perStep.set(step, (mode.perStep.get(step) ?? 0) + n);
    for (const [task, n] of g.tasks) this.countTask(mode, task, n);
    for (const e of g.exemplars) if (mode.exemplars.length < EXEMPLARS) mode.exemplars.push(e);
  }

  /** The mode a signature joins (mined and merged), its count and features counted `weight` times. */
  private modeOf(failure: FailureSignature, weight: number): Mode {
    const { head, line } = splitSignature(failure.name);
    const lineKey = `${head}\n${line}`;
    let templateId = this.templateOf.get(lineKey);
    if (templateId === undefined) {
      templateId = this.minerOf(head).add(line).id;
      // Bounded like the miners: lines past the cap are mined each time they come.
      if (this.templateOf.size < MAX_CACHED_LINES) this.templateOf.set(lineKey, templateId);
    }
    const mode = this.modeFor(head, failure.features, templateId);
    mode.count += weight;
    for (const f of failure.features) {
      const [kind, value = ''] = splitFeature(f);
      if (kind === 'last' && value !== '-') bump(mode.lastTools, value, weight);
      if (kind === 'regression') bump(mode.regressionKinds, value, weight);
      if (kind === 'code') bump(mode.findingCodes, value, weight);
    }
    return mode;
  }

  private countTask(mode: Mode, task: string, n: number): void {
    const tasks = mode.tasks.get(task);
    if (tasks !== undefined) mode.tasks.set(task, tasks + n);
    else if (mode.tasks.size < MAX_TASKS) mode.tasks.set(task, n);
    else mode.otherTasks += n;
  }

  private minerOf(head: string): TemplateMiner {
    let miner = this.miners.get(head);
    if (!miner) {
      miner = new TemplateMiner();
      this.miners.set(head, miner);
    }
    return miner;
  }

  private modeFor(head: string, features: readonly string[], templateId: number): Mode {
    const bucketKey = JSON.stringify([head, templateId]);
    const bucket = this.buckets.get(bucketKey) ?? [];
    if (bucket.length === 0) this.buckets.set(bucketKey, bucket);
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
      head: parseHead(head),
      headText: head,
      features: new Set(features),
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
      const template = this.minerOf(m.headText).text(m.templateId);
      return {
        name: '',
        termination: m.head.termination,
        verdict: m.head.verdict,
        source: m.head.source,
        template,
        query: modeQuery(m.head, template),
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
    return {
      rollouts: this.rollouts,
      failures: this.failures,
      templates: [...this.miners.values()].reduce((n, m) => n + m.size, 0),
      modes,
    };
  }
}

/**
 * The failure modes of a dataset's rows (the page's Failure modes view, files and runs alike): `keys` and
 * `steps` are index-aligned with `rows` (a row's key and `training_step`, null when it has none).
 */
export function failureModesOfRows(
  rows: readonly RolloutSummary[],
  keys: readonly string[],
  steps: readonly (number | null)[],
): FailureModesResult {
  const modes = new FailureModes();
  rows.forEach((row, i) => {
    modes.addInput({
      failure: row.failure,
      step: steps[i] ?? null,
      task_id: row.task_id,
      key: keys[i] ?? keyOf(row),
      file: row.file,
      line: row.line,
    });
  });
  return modes.result();
}

/** `mode:"<head>: <template>"` with the template's wildcards as the search's `*`. */
function modeQuery(head: Mode['head'], template: string): string {
  const verdict = head.verdict !== null ? ` (${head.verdict})` : '';
  const glob = `${head.termination}${verdict} · ${head.source}: ${template.split('<*>').join('*')}`;
  return printQuery({ clauses: [{ negated: false, term: { kind: 'name', field: 'mode', value: glob }, start: 0, end: 0 }] });
}

/** A record's `ModeInput`. */
function modeInputOf(record: Rollout, summary: RolloutSummary): ModeInput {
  return {
    failure: summary.failure,
    step: trainingStepOf(record),
    task_id: summary.task_id,
    key: keyOf(summary),
    file: summary.file,
    line: summary.line,
  };
}

/** `kind:value` of a soft feature (`last:edit`, `regression:revert`, `code:W_X`). */
function splitFeature(f: string): [string, string] {
  const at = f.indexOf(':');
  return at === -1 ? [f, ''] : [f.slice(0, at), f.slice(at + 1)];
}

/** A signature's head, `termination[ (verdict)] · source`, back into its parts. */
function parseHead(head: string): Mode['head'] {
  const m = /^(.*?)(?: \(([^()]*)\))? · (.*)$/s.exec(head);
  return m ? { termination: m[1] ?? '', verdict: m[2] ?? null, source: m[3] ?? '' } : { termination: head, verdict: null, source: 'none' };
}

/** `training_step` (trajectory-format.md §2) when it is a whole number >= 0; the schema keeps it as an extra field. */
function trainingStepOf(record: Rollout): number | null {
  const step: unknown = record.training_step;
  return typeof step === 'number' && Number.isSafeInteger(step) && step >= 0 ? step : null;
}

function bump(counts: Map<string, number>, key: string, weight = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + weight);
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
