import { joinTurns, terminationInfo } from '../../analysis';
import type { Rollout, Step, TrainingUpdate } from '../../format';
import { formatLogprob } from '../shared/format';

/*
 * One rollout as the design article's division of labour: the model generates tool calls, the harness
 * executes them, the environment holds the state, the grader privately scores the final artifact and
 * the trainer consumes trajectory and score. Each event is one thing one role does, with the flows that
 * go with it. Tool observations go back to the model; the private grade goes to the trainer only.
 */

export type Lane = 'model' | 'harness' | 'environment' | 'grader' | 'trainer';

export const LANES: readonly Lane[] = ['model', 'harness', 'environment', 'grader', 'trainer'];

export const LANE_ROLE: Record<Lane, string> = {
  model: 'generates tool calls',
  harness: 'executes calls',
  environment: 'holds the state',
  grader: 'scores privately',
  trainer: 'consumes trajectory + score',
};

/**
 * action: the model's tool call to the harness; dispatch: the harness runs it in the environment;
 * observation: the tool result back toward the model; submission: the artifact to the grader;
 * private-grade: the verdict and reward, to the trainer only; trajectory: the recorded rollout.
 */
export type FlowKind = 'action' | 'dispatch' | 'observation' | 'submission' | 'private-grade' | 'trajectory';

export interface Flow {
  kind: FlowKind;
  from: Lane;
  to: Lane;
  /** A lane the flow passes through (an observation goes environment → harness → model). */
  via: Lane | null;
  label: string;
}

export type EventKind =
  | 'generate'
  | 'dispatch'
  | 'reject'
  | 'execute'
  | 'observe'
  | 'grade'
  | 'score'
  | 'stop'
  | 'consume'
  | 'update'
  | 'excluded';

export interface RoleEvent {
  id: string;
  kind: EventKind;
  /** The lane of the event's box; null for an event that is only a flow. */
  lane: Lane | null;
  /** For a box across lanes (an excluded ending), the last lane it covers. */
  laneEnd: Lane | null;
  /** The box's text. */
  title: string;
  /** A second, smaller line in the box. */
  detail: string | null;
  flows: Flow[];
  /** One sentence that narrates the event while the rollout plays. */
  caption: string;
  /** An accessible name for the event as a whole. */
  label: string;
  step: number | null;
  segment: number | null;
  /** Milliseconds since the rollout started, when the timestamps say. */
  startMs: number | null;
  durationMs: number | null;
  tone: 'normal' | 'error' | 'excluded';
}

export interface RoleTimeline {
  events: RoleEvent[];
  /** Whether any event has a duration from timestamps. */
  timed: boolean;
  totalMs: number | null;
  /** Excluded from the policy signal: never reaches the trainer. */
  excluded: boolean;
}

const MAX_LABEL = 48;

function clip(text: string, max = MAX_LABEL): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function quote(text: string, max = MAX_LABEL): string {
  return `“${clip(text, max)}”`;
}

function argText(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

/** `edit(search.py)`, `run_tests()`: the call as a person would write it. */
export function callText(step: Pick<Step, 'tool' | 'args'>): string {
  const args = step.args ?? {};
  const main = argText(args.path) ?? argText(args.command) ?? argText(args.query) ?? argText(args.file);
  if (main !== null) return `${step.tool}(${clip(main, 28)})`;
  return Object.keys(args).length === 0 ? `${step.tool}()` : `${step.tool}(…)`;
}

function lineCount(text: string): number {
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

function testsText(step: Step): string | null {
  const t = step.tests;
  if (!t) return null;
  const parts = [`${t.passed?.length ?? 0} passed`];
  if (t.failed?.length) parts.push(`${t.failed.length} failed`);
  if (t.over_budget?.length) parts.push(`${t.over_budget.length} over budget`);
  return parts.join(', ');
}

/** What the observation says, short enough for an arrow's label. */
export function observationText(step: Step): string {
  const tests = testsText(step);
  if (tests !== null) return tests;
  const text = step.observation?.text ?? '';
  if (step.tool === 'read_file' && step.observation?.status !== 'error') {
    const path = argText(step.args?.path);
    return `${path ?? 'file'}: ${lineCount(text)} lines`;
  }
  if (text === '') return step.observation?.status ?? 'no text';
  return clip(text.split('\n')[0] ?? text);
}

function parseTime(iso: string | undefined): number | null {
  if (iso === undefined) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

function executed(step: Step): boolean {
  return step.executions !== 0;
}

function executeCaption(step: Step, call: string): string {
  const status = step.observation?.status;
  const failed = status === 'error' || status === 'timeout';
  switch (step.tool) {
    case 'read_file':
      return failed
        ? `The harness executes ${call}, and the environment answers with an error.`
        : `The harness executes ${call}: the environment reads the file from its state.`;
    case 'edit': {
      const old = argText(step.args?.old);
      const next = argText(step.args?.new);
      const change = old !== null && next !== null ? `: ${quote(old, 30)} → ${quote(next, 30)}` : '';
      return failed
        ? `The harness executes ${call}, but the edit fails: the environment's file does not change.`
        : `The harness executes ${call} — the environment's file changes${change}.`;
    }
    case 'run_tests': {
      const tests = testsText(step);
      return `The harness executes ${call}: the environment runs the public dev tests${tests ? ` (${tests})` : ''}.`;
    }
    case 'finish':
      return `The harness executes ${call}: the environment's current diff becomes the submitted artifact.`;
    default:
      return `The harness executes ${call} in the environment.`;
  }
}

function rewardText(reward: number | null | undefined): string {
  return typeof reward === 'number' ? `R = ${Number.isInteger(reward) ? reward : Number(reward.toFixed(4))}` : 'no reward';
}

function privateTestsText(record: Rollout): string | null {
  const p = record.grading?.private_tests;
  if (!p) return null;
  const n = (v: number | string[] | undefined) => (v === undefined ? null : typeof v === 'number' ? v : v.length);
  const passed = n(p.passed);
  const failed = n(p.failed);
  if (passed === null && failed === null) return null;
  return `${passed ?? 0} passed, ${failed ?? 0} failed`;
}

function diffStat(artifact: string | undefined): string | null {
  if (artifact === undefined) return null;
  let add = 0;
  let del = 0;
  for (const line of artifact.split('\n')) {
    if (line.startsWith('+') && !line.startsWith('+++')) add++;
    else if (line.startsWith('-') && !line.startsWith('---')) del++;
  }
  return add + del > 0 ? `+${add} −${del}` : `${lineCount(artifact)} lines`;
}

/** A free-text reason some writers add (the demo's `termination_detail`); shown only when it is text. */
function terminationDetail(record: Rollout): string | null {
  const d = record.termination_detail;
  return typeof d === 'string' && d.trim() !== '' ? d : null;
}

function signed(x: number): string {
  return `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(3)}`;
}

/**
 * The optimiser update the trainer recorded for the rollout (`training.update`): which update it went
 * into, the advantage it was given, the tokens under the loss, and how far behind the sampler was.
 */
export function updateText(u: TrainingUpdate, sampledAt: number | undefined): Pick<RoleEvent, 'title' | 'detail' | 'caption' | 'label'> {
  const step = u.step === undefined ? 'update' : `update ${u.step}`;
  const adv = u.advantage === undefined ? null : signed(u.advantage);
  const tokens = u.tokens === undefined ? null : `${u.tokens} token${u.tokens === 1 ? '' : 's'} trained`;
  const clipped = u.clipped ? `, ${u.clipped} stopped by the clip` : '';
  const lag = u.step !== undefined && sampledAt !== undefined ? u.step - sampledAt : null;
  const weights = u.policy_version ? ` (weights ${u.policy_version})` : '';
  const sampled =
    lag === null || lag <= 0
      ? 'It was sampled by these same weights.'
      : `It was sampled ${lag} update${lag === 1 ? '' : 's'} earlier (training_step ${sampledAt}), so the trainer’s log-probabilities differ from old_logprobs.`;
  const push =
    u.advantage === undefined
      ? ''
      : u.advantage > 0
        ? ': its tokens are pushed up'
        : u.advantage < 0
          ? ': its tokens are pushed down'
          : ': equal rewards in its group, so it pushes nothing';
  return {
    title: adv === null ? step : `${step} · A ${adv}`,
    detail: tokens,
    caption: `The trainer’s ${step}${weights} gives this rollout advantage ${adv ?? 'unknown'} in its group${push}${tokens ? `; ${tokens}${clipped}` : ''}. ${sampled}`,
    label: `trainer ${step}: advantage ${adv ?? 'unknown'}${tokens ? `, ${tokens}` : ''}`,
  };
}

/** Builds the ordered events of one rollout. Pure: the view lays them out and plays them. */
export function buildRoleEvents(record: Rollout): RoleTimeline {
  const steps = record.steps ?? [];
  const info = terminationInfo(record.termination);
  const excluded = !info.inSignal;
  const t0 = parseTime(record.started_at) ?? parseTime(steps[0]?.started_at);
  const rel = (iso: string | undefined) => {
    const t = parseTime(iso);
    return t === null || t0 === null ? null : t - t0;
  };
  const span = (from: number | null, to: number | null) => (from === null || to === null || to < from ? null : to - from);

  const events: RoleEvent[] = [];
  const push = (e: Omit<RoleEvent, 'laneEnd' | 'tone' | 'detail' | 'step' | 'segment' | 'startMs' | 'durationMs'> & Partial<RoleEvent>) =>
    events.push({ laneEnd: null, tone: 'normal', detail: null, step: null, segment: null, startMs: null, durationMs: null, ...e });

  const turns = joinTurns(record);
  const lastStep = steps.length;
  // When the model's context was last extended: the rollout's start, then each observation.
  let ready: number | null = t0 === null ? null : 0;

  turns.forEach((turn, ti) => {
    const step = turn.step === null ? undefined : steps[turn.step - 1];
    const seg = turn.segment === null ? undefined : record.segments[turn.segment];
    const n = turn.step;
    const call = step ? callText(step) : null;
    const tag = n !== null ? `step ${n}` : `segment ${turn.segment}`;

    if (seg && turn.segment !== null) {
      const tokens = seg.generated_ids.length;
      const logp = seg.old_logprobs.reduce((a, b) => a + b, 0);
      const end = step ? rel(step.started_at) : null;
      const what = call ? `one tool call, ${call}` : 'a final answer with no tool call';
      push({
        id: `gen-${ti}`,
        kind: 'generate',
        lane: 'model',
        title: call ? `generate ${call}` : 'generate answer',
        // A rollout converted from a transcript has the text of a generation but no token ids.
        detail: tokens > 0 ? `${tokens} tokens · log p ${formatLogprob(logp)}` : 'text only, no token ids',
        flows: [],
        caption:
          tokens > 0
            ? `The model samples ${tokens} tokens: ${what}, log-probability ${formatLogprob(logp)}.`
            : `The model generates ${what} (recorded as text, without token ids).`,
        label: `model generates ${call ?? 'a final answer'} (${tag})`,
        step: n,
        segment: turn.segment,
        startMs: ready,
        durationMs: span(ready, end),
      });
    }
    if (!step || n === null || call === null) return;

    const start = rel(step.started_at);
    const end = rel(step.ended_at);
    const ran = executed(step);
    const rejected = !ran && record.termination === 'invalid_call' && n === lastStep;
    const retried = (step.attempts ?? 1) > 1 ? ` The transport retried it ${(step.attempts ?? 1) - 1}× under the same call id.` : '';
    const flows: Flow[] = seg ? [{ kind: 'action', from: 'model', to: 'harness', via: null, label: call }] : [];
    if (ran) flows.push({ kind: 'dispatch', from: 'harness', to: 'environment', via: null, label: step.tool_call_id });
    push({
      id: `dispatch-${n}`,
      kind: rejected ? 'reject' : 'dispatch',
      lane: 'harness',
      title: rejected ? `reject ${step.tool}` : `dispatch ${step.tool_call_id}`,
      detail: rejected ? 'never executed' : null,
      flows,
      caption: rejected
        ? `The harness rejects ${call}: ${clip(step.observation?.text ?? 'not a tool it offers', 80)}. The environment never runs it.`
        : ran
          ? `The harness parses the call and dispatches ${call} to the environment as ${step.tool_call_id}.${retried}`
          : `The harness dispatches ${call}, but the environment never executes it (executions: 0).`,
      label: rejected ? `harness rejects ${call} (${tag})` : `harness dispatches ${call} (${tag})`,
      step: n,
      startMs: start,
      tone: rejected || !ran ? 'error' : 'normal',
    });

    if (ran) {
      const status = step.observation?.status;
      const duplicate = (step.executions ?? 1) > 1 ? ` It ran ${step.executions} times: a duplicate execution.` : '';
      push({
        id: `exec-${n}`,
        kind: 'execute',
        lane: 'environment',
        title: call,
        detail: status && status !== 'ok' ? status.replace(/_/g, ' ') : null,
        flows: [],
        caption: executeCaption(step, call) + duplicate,
        label: `environment executes ${call} (${tag})`,
        step: n,
        startMs: start,
        durationMs: span(start, end),
        tone: status === 'error' || status === 'timeout' || (step.executions ?? 1) > 1 ? 'error' : 'normal',
      });
    }

    // An excluded rollout's last observation never reached the model: its ending says so instead. A
    // rejected last call's error is in the rejection's caption: it went nowhere.
    const last = n === lastStep;
    if (step.observation && !(excluded && last) && !(last && !ran)) {
      const text = observationText(step);
      const from: Lane = ran ? 'environment' : 'harness';
      const toModel = !last;
      push({
        id: `obs-${n}`,
        kind: 'observe',
        lane: null,
        title: text,
        flows: [
          {
            kind: 'observation',
            from,
            to: toModel ? 'model' : 'harness',
            via: toModel && from === 'environment' ? 'harness' : null,
            label: text,
          },
        ],
        caption: toModel
          ? `The observation ${quote(text)} goes back through the harness into the model's next context.`
          : `The observation ${quote(text)} returns to the harness; the rollout ends here, so the model never reads it.`,
        label: `observation (${tag}): ${text} — ${from} → ${toModel ? (from === 'environment' ? 'harness → model' : 'model') : 'harness'}`,
        step: n,
        startMs: end,
      });
      ready = end;
    }
  });

  const endMs = rel(record.ended_at);
  const finishIndex = steps.findIndex((s) => s.tool === 'finish');
  const finishEnd = finishIndex === -1 ? null : rel(steps[finishIndex]?.ended_at);
  const grading = record.grading;
  const reward = rewardText(record.reward);

  if (grading && (grading.verdict !== undefined || grading.artifact !== undefined)) {
    const verdict = grading.verdict ?? 'no verdict';
    const tests = privateTestsText(record);
    const stat = diffStat(grading.artifact);
    const submitFrom: Lane = finishIndex === -1 ? 'harness' : 'environment';
    push({
      id: 'grade',
      kind: 'grade',
      lane: 'grader',
      title: `verdict ${verdict}`,
      detail: tests ? `private: ${tests}` : null,
      flows: [{ kind: 'submission', from: submitFrom, to: 'grader', via: null, label: `artifact${stat ? ` ${stat}` : ''}` }],
      caption: `The grader applies the submitted artifact to its own copy and runs the private tests${tests ? ` (${tests})` : ''}: verdict ${verdict}. The model never sees this.`,
      label: `grader scores the artifact privately: verdict ${verdict}`,
      startMs: finishEnd,
      durationMs: span(finishEnd, endMs),
      tone: excluded ? 'excluded' : 'normal',
    });
    if (!excluded) {
      push({
        id: 'score',
        kind: 'score',
        lane: null,
        title: `private grade: ${verdict} · ${reward}`,
        flows: [{ kind: 'private-grade', from: 'grader', to: 'trainer', via: null, label: `private grade: ${verdict} · ${reward}` }],
        caption: `The private grade goes to the trainer only, never back to the model: ${verdict}, ${reward}.`,
        label: `private grade: ${verdict}, ${reward} — grader → trainer only, never to the model`,
        startMs: endMs,
      });
    }
  }

  if (excluded) {
    const why = terminationDetail(record) ?? info.meaning;
    push({
      id: 'excluded',
      kind: 'excluded',
      lane: 'harness',
      laneEnd: 'environment',
      title: `${info.label}: ${clip(why, 40)}`,
      detail: "never reaches the trainer's policy signal",
      flows: [],
      caption: `${info.label[0]?.toUpperCase() ?? ''}${info.label.slice(1)}: ${why}. The rollout ends at the harness and environment — it never reaches the trainer's policy signal.`,
      label: `${info.label}: ends at the harness and environment, never reaches the trainer's policy signal`,
      startMs: endMs,
      tone: 'excluded',
    });
  } else {
    if (record.termination === 'budget_exhausted') {
      const used = record.budget?.actions_used;
      const max = record.budget?.max_actions;
      const detail =
        terminationDetail(record) ?? (used !== undefined && max !== undefined ? `${used} of ${max} actions used` : 'budget exhausted');
      push({
        id: 'stop',
        kind: 'stop',
        lane: 'harness',
        title: 'stop: budget exhausted',
        detail: clip(detail, 40),
        flows: [],
        caption: `The harness stops the rollout: ${detail}. There is nothing to grade; the task contract decides the reward (${reward}).`,
        label: `harness stops the rollout: budget exhausted`,
        startMs: endMs,
        tone: 'error',
      });
    }
    const trained = record.training ? record.training.loss_mask.reduce<number>((a, b) => a + b, 0) : null;
    const gens = record.segments.length;
    const trajectory = `trajectory: ${gens} generation${gens === 1 ? '' : 's'}${trained !== null ? ` · ${trained} trained tokens` : ''}`;
    const source =
      record.grading?.verdict !== undefined
        ? 'from the private grade'
        : record.termination === 'budget_exhausted'
          ? 'from the task contract (budget exhausted)'
          : `as recorded, with no grader verdict (${info.label})`;
    push({
      id: 'consume',
      kind: 'consume',
      lane: 'trainer',
      title: `policy signal: ${reward}`,
      detail: trained !== null ? `${trained} tokens under the loss` : 'no training record',
      flows: [{ kind: 'trajectory', from: 'harness', to: 'trainer', via: null, label: trajectory }],
      caption: `The trainer consumes the trajectory (${gens} generation${gens === 1 ? '' : 's'}${trained !== null ? `, ${trained} tokens under the loss` : ''}) with ${reward} ${source}: this rollout is part of the policy signal.`,
      label: `trainer consumes the trajectory and ${reward}`,
      startMs: endMs,
    });
    const update = record.training?.update;
    // training_step (§2) is not in the schema yet; read it only when it is a count.
    const at = record.training_step;
    const sampledAt = typeof at === 'number' && Number.isSafeInteger(at) && at >= 0 ? at : undefined;
    if (update) push({ id: 'update', kind: 'update', lane: 'trainer', flows: [], startMs: endMs, ...updateText(update, sampledAt) });
  }

  return {
    events,
    timed: events.some((e) => e.durationMs !== null),
    totalMs: endMs,
    excluded,
  };
}
