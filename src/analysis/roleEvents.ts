import type { Rollout, Step, TrainingUpdate } from '../format';
import { type PrivateTests, privateTests } from './auditTests';
import { cursorOf } from './chunked';
import { PASS_CHUNK, type Pass, runPass, within } from './passes';
import { executionsOf } from './stepChecks';
import { terminationInfo } from './termination';
import { timestampMs as parseTime, type Turn, type TurnIndex, turnAt, turnIndexPass } from './timeline';

/*
 * One rollout as the design article's division of labour: the model generates tool calls, the harness
 * executes them, the environment holds the state, the grader privately scores the final artifact and
 * the trainer consumes trajectory and score. Each event is one thing one role does, with the flows that
 * go with it. Tool observations go back to the model; the private grade goes to the trainer only.
 * Facts only: the roles view words each event (ui/roles/eventWords.ts).
 */

export type Lane = 'model' | 'harness' | 'environment' | 'grader' | 'trainer';

export const LANES: readonly Lane[] = ['model', 'harness', 'environment', 'grader', 'trainer'];

/**
 * action: the model's tool call to the harness; dispatch: the harness runs it in the environment;
 * observation: the tool result back toward the model; submission: the artifact to the grader;
 * private-grade: the verdict and reward, to the trainer only; trajectory: the recorded rollout.
 */
export type FlowKind = 'action' | 'dispatch' | 'observation' | 'submission' | 'private-grade' | 'trajectory';

export interface RoleFlow {
  kind: FlowKind;
  from: Lane;
  to: Lane;
  /** A lane the flow passes through (an observation goes environment → harness → model). */
  via: Lane | null;
}

interface EventBase {
  id: string;
  /** The lane of the event's box; null for an event that is only a flow. */
  lane: Lane | null;
  /** For a box across lanes (an excluded ending), the last lane it covers. */
  laneEnd: Lane | null;
  flows: RoleFlow[];
  step: number | null;
  segment: number | null;
  /** Milliseconds since the rollout started, when the timestamps say. */
  startMs: number | null;
  durationMs: number | null;
  tone: 'normal' | 'error' | 'excluded';
}

/** Where the reward the trainer consumes comes from. */
type RewardSource = 'private-grade' | 'task-contract' | 'as-recorded';

export type RoleEventFacts = EventBase &
  (
    | { kind: 'generate'; call: Step | null; tokens: number; logprob: number }
    | { kind: 'dispatch'; call: Step; executed: boolean; attempts: number }
    | { kind: 'reject'; call: Step }
    | { kind: 'execute'; call: Step; executions: number }
    | { kind: 'observe'; call: Step; from: Lane; toModel: boolean }
    | { kind: 'grade'; verdict: string | null; privateTests: PrivateTests | null; artifact: string | undefined }
    | { kind: 'score'; verdict: string | null; reward: number | null }
    | { kind: 'excluded'; termination: string; detail: string | null }
    | { kind: 'stop'; detail: string | null; actionsUsed: number | null; maxActions: number | null; reward: number | null }
    | { kind: 'consume'; reward: number | null; generations: number; trainedTokens: number | null; source: RewardSource }
    | { kind: 'update'; update: TrainingUpdate; sampledAt: number | null; lag: number | null }
  );

export interface RoleTimelineFacts {
  events: RoleEventFacts[];
  /** Whether any event has a duration from timestamps. */
  timed: boolean;
  totalMs: number | null;
  /** Excluded from the policy signal: never reaches the trainer. */
  excluded: boolean;
}

/** A free-text reason some writers add (the demo's `termination_detail`); kept only when it is text. */
function terminationDetail(record: Rollout): string | null {
  const d = record.termination_detail;
  return typeof d === 'string' && d.trim() !== '' ? d : null;
}

type Defaults = 'laneEnd' | 'tone' | 'step' | 'segment' | 'startMs' | 'durationMs' | 'flows';

function defaults(): Pick<EventBase, Defaults> {
  return { laneEnd: null, tone: 'normal', step: null, segment: null, startMs: null, durationMs: null, flows: [] };
}

/** What every event of one record is placed by, worked out once per record. */
interface Placing {
  record: Rollout;
  steps: Step[];
  /** Step `i` (0-based): `steps[i]`, or a cursor over them for the pass that walks them all (cursorOf). */
  stepAt: (i: number) => Step | undefined;
  /** The first `finish` step (TurnIndex.finish): where the artifact was submitted from. */
  finish: number | null;
  excluded: boolean;
  /** Milliseconds since the rollout started, when the timestamps say. */
  rel: (iso: string | undefined) => number | null;
  /** When the model's context was first ready: the rollout's start. */
  start: number | null;
}

function placing(record: Rollout, turns: TurnIndex, stepAt?: (i: number) => Step | undefined): Placing {
  const steps = record.steps ?? [];
  const t0 = parseTime(record.started_at) ?? parseTime(steps[0]?.started_at);
  const rel = (iso: string | undefined) => {
    const t = parseTime(iso);
    return t === null || t0 === null ? null : t - t0;
  };
  return {
    record,
    steps,
    stepAt: stepAt ?? ((i) => steps[i]),
    finish: turns.finish,
    excluded: !terminationInfo(record.termination).inSignal,
    rel,
    start: t0 === null ? null : 0,
  };
}

const span = (from: number | null, to: number | null) => (from === null || to === null || to < from ? null : to - from);

/**
 * The events of one turn (`ti`: its place in joinTurns), pushed in order. `ready` is when the model's
 * context was last extended (the rollout's start, then each observation); returns it after the turn.
 */
function turnEvents(p: Placing, turn: Turn, ti: number, ready: number | null, push: (e: RoleEventFacts) => void): number | null {
  const { record, steps, excluded, rel } = p;
  const lastStep = steps.length;
  const step = turn.step === null ? undefined : p.stepAt(turn.step - 1);
  const seg = turn.segment === null ? undefined : record.segments[turn.segment];
  const n = turn.step;

  if (seg && turn.segment !== null) {
    const end = step ? rel(step.started_at) : null;
    push({
      ...defaults(),
      id: `gen-${ti}`,
      kind: 'generate',
      lane: 'model',
      call: step ?? null,
      tokens: seg.generated_ids.length,
      logprob: seg.old_logprobs.reduce((a, b) => a + b, 0),
      step: n,
      segment: turn.segment,
      startMs: ready,
      durationMs: span(ready, end),
    });
  }
  if (!step || n === null) return ready;

  const start = rel(step.started_at);
  const end = rel(step.ended_at);
  const executions = executionsOf(step);
  const ran = executions !== 0;
  const rejected = !ran && record.termination === 'invalid_call' && n === lastStep;
  const action: RoleFlow[] = seg ? [{ kind: 'action', from: 'model', to: 'harness', via: null }] : [];
  if (rejected) {
    push({
      ...defaults(),
      id: `dispatch-${n}`,
      kind: 'reject',
      lane: 'harness',
      call: step,
      flows: action,
      step: n,
      startMs: start,
      tone: 'error',
    });
  } else {
    const flows: RoleFlow[] = ran ? [...action, { kind: 'dispatch', from: 'harness', to: 'environment', via: null }] : action;
    push({
      ...defaults(),
      id: `dispatch-${n}`,
      kind: 'dispatch',
      lane: 'harness',
      call: step,
      executed: ran,
      attempts: step.attempts ?? 1,
      flows,
      step: n,
      startMs: start,
      tone: ran ? 'normal' : 'error',
    });
  }

  if (ran) {
    const status = step.observation?.status;
    push({
      ...defaults(),
      id: `exec-${n}`,
      kind: 'execute',
      lane: 'environment',
      call: step,
      executions,
      step: n,
      startMs: start,
      durationMs: span(start, end),
      tone: status === 'error' || status === 'timeout' || executions > 1 ? 'error' : 'normal',
    });
  }

  // An excluded rollout's last observation never reached the model: its ending says so instead. A
  // rejected last call's error is in the rejection: it went nowhere.
  const last = n === lastStep;
  if (step.observation && !(excluded && last) && !(last && !ran)) {
    const from: Lane = ran ? 'environment' : 'harness';
    const toModel = !last;
    push({
      ...defaults(),
      id: `obs-${n}`,
      kind: 'observe',
      lane: null,
      call: step,
      from,
      toModel,
      flows: [{ kind: 'observation', from, to: toModel ? 'model' : 'harness', via: toModel && from === 'environment' ? 'harness' : null }],
      step: n,
      startMs: end,
    });
    return end;
  }
  return ready;
}

/** The events after the last turn: grading, the private grade, the ending, what the trainer does. */
function tailEvents(p: Placing, push: (e: RoleEventFacts) => void): void {
  const { record, steps, excluded, rel, finish } = p;
  const endMs = rel(record.ended_at);
  const finishEnd = finish === null ? null : rel(steps[finish - 1]?.ended_at);
  const grading = record.grading;
  const reward = typeof record.reward === 'number' ? record.reward : null;
  const verdict = grading?.verdict ?? null;
  if (grading && (grading.verdict !== undefined || grading.artifact !== undefined)) {
    push({
      ...defaults(),
      id: 'grade',
      kind: 'grade',
      lane: 'grader',
      verdict,
      privateTests: privateTests(record),
      artifact: grading.artifact,
      flows: [{ kind: 'submission', from: finish === null ? 'harness' : 'environment', to: 'grader', via: null }],
      startMs: finishEnd,
      durationMs: span(finishEnd, endMs),
      tone: excluded ? 'excluded' : 'normal',
    });
    if (!excluded) {
      push({
        ...defaults(),
        id: 'score',
        kind: 'score',
        lane: null,
        verdict,
        reward,
        flows: [{ kind: 'private-grade', from: 'grader', to: 'trainer', via: null }],
        startMs: endMs,
      });
    }
  }

  if (excluded) {
    push({
      ...defaults(),
      id: 'excluded',
      kind: 'excluded',
      lane: 'harness',
      laneEnd: 'environment',
      termination: record.termination,
      detail: terminationDetail(record),
      startMs: endMs,
      tone: 'excluded',
    });
  } else {
    if (record.termination === 'budget_exhausted') {
      push({
        ...defaults(),
        id: 'stop',
        kind: 'stop',
        lane: 'harness',
        detail: terminationDetail(record),
        actionsUsed: record.budget?.actions_used ?? null,
        maxActions: record.budget?.max_actions ?? null,
        reward,
        startMs: endMs,
        tone: 'error',
      });
    }
    push({
      ...defaults(),
      id: 'consume',
      kind: 'consume',
      lane: 'trainer',
      reward,
      generations: record.segments.length,
      trainedTokens: record.training ? record.training.loss_mask.reduce<number>((a, b) => a + b, 0) : null,
      source: verdict !== null ? 'private-grade' : record.termination === 'budget_exhausted' ? 'task-contract' : 'as-recorded',
      flows: [{ kind: 'trajectory', from: 'harness', to: 'trainer', via: null }],
      startMs: endMs,
    });
    // The optimiser update a trainer recorded for the rollout (training.update): its index against the
    // rollout's training_step is how far behind the sampler was.
    const update = record.training?.update;
    if (update) {
      const at = record.training_step;
      const sampledAt = typeof at === 'number' && Number.isSafeInteger(at) && at >= 0 ? at : null;
      const lag = update.step !== undefined && sampledAt !== null ? update.step - sampledAt : null;
      push({ ...defaults(), id: 'update', kind: 'update', lane: 'trainer', update, sampledAt, lag, startMs: endMs });
    }
  }
}

/** The ordered role events of one rollout. Pure: the view words, lays out and plays them. */
export function roleTimeline(record: Rollout): RoleTimelineFacts {
  const turns = runPass(turnIndexPass(record));
  const p = placing(record, turns);
  const events: RoleEventFacts[] = [];
  const push = (e: RoleEventFacts) => events.push(e);
  let ready = p.start;
  for (let ti = 0; ti < turns.length; ti++) ready = turnEvents(p, turnAt(turns, ti), ti, ready, push);
  tailEvents(p, push);
  return { events, timed: events.some((e) => e.durationMs !== null), totalMs: p.rel(record.ended_at), excluded: p.excluded };
}

/**
 * A huge rollout's events in pages of `per` turns (issue 18): 4 events a step make 4,000,000 for a
 * million steps, too many to hold as objects. One pass counts each page's events and remembers where
 * the model's context stood at its start, so any page's events are made again, exactly, when shown.
 */
export interface RolePages {
  per: number;
  turns: TurnIndex;
  /** The index of each page's first event; one more entry at the end, the number of events. */
  starts: number[];
  /** `ready` (see turnEvents) at each page's first turn. */
  ready: (number | null)[];
  timed: boolean;
  totalMs: number | null;
  excluded: boolean;
}

/** `RolePages` as a pass (src/analysis/passes.ts), for a page to run in slices. */
export function* rolePagesPass(record: Rollout, per: number): Pass<RolePages> {
  const turns = yield* within(turnIndexPass(record), 0, 0.3);
  // Turns come in step order (but for a segment joined to an earlier step): a cursor reads the steps
  // a run at a time, parsing a huge rollout's chunks once each (docs/adr/0018).
  const p = placing(record, turns, cursorOf(record.steps ?? []));
  let count = 0;
  let timed = false;
  const push = (e: RoleEventFacts) => {
    count++;
    if (e.durationMs !== null) timed = true;
  };
  const starts: number[] = [];
  const ready: (number | null)[] = [];
  let at = p.start;
  for (let ti = 0; ti < turns.length; ti++) {
    if (ti % per === 0) {
      starts.push(count);
      ready.push(at);
    }
    at = turnEvents(p, turnAt(turns, ti), ti, at, push);
    if (ti % PASS_CHUNK === 0) yield 0.3 + (0.7 * ti) / turns.length;
  }
  if (starts.length === 0) {
    starts.push(0);
    ready.push(at);
  }
  tailEvents(p, push);
  starts.push(count);
  return { per, turns, starts, ready, timed, totalMs: p.rel(record.ended_at), excluded: p.excluded };
}

/** The events of one page of `pages`, in order: the page's turns, and on the last page the ending too. */
export function rolePageEvents(record: Rollout, pages: RolePages, page: number): RoleEventFacts[] {
  const p = placing(record, pages.turns);
  const events: RoleEventFacts[] = [];
  const push = (e: RoleEventFacts) => events.push(e);
  const last = pages.starts.length - 2;
  let ready = pages.ready[page] ?? p.start;
  const to = Math.min(pages.turns.length, (page + 1) * pages.per);
  for (let ti = page * pages.per; ti < to; ti++) ready = turnEvents(p, turnAt(pages.turns, ti), ti, ready, push);
  if (page === last) tailEvents(p, push);
  return events;
}
