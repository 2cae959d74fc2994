import {
  type FlowKind,
  LANES,
  type Lane,
  type PrivateTests,
  plural,
  type RoleEventFacts,
  type RoleFlow,
  roleTimeline,
  terminationInfo,
} from '../../analysis';
import type { Rollout, TrainingUpdate } from '../../format';
import { formatLogprob, rewardNumber } from '../shared/format';
import { callText, clip, diffStat, executeCaption, observationText, quote, statusLine } from './callWords';

/*
 * The roles view's words for the role events of src/analysis/roleEvents.ts: each event's box text and
 * arrow labels, the narration while the rollout plays, and an accessible name.
 */

export type { FlowKind, Lane };
export { LANES };

export const LANE_ROLE: Record<Lane, string> = {
  model: 'generates tool calls',
  harness: 'executes calls',
  environment: 'holds the state',
  grader: 'scores privately',
  trainer: 'consumes trajectory + score',
};

export interface Flow extends RoleFlow {
  label: string;
}

interface Words {
  /** The box's text. */
  title: string;
  /** A second, smaller line in the box. */
  detail: string | null;
  /** One sentence that narrates the event while the rollout plays. */
  caption: string;
  /** An accessible name for the event as a whole. */
  label: string;
  /** A label per flow, in the event's flow order. */
  flowLabels: string[];
}

/** A role event as the view shows it. */
export type RoleEvent = Omit<RoleEventFacts, 'flows'> & Omit<Words, 'flowLabels'> & { flows: Flow[] };

export interface RoleTimeline {
  events: RoleEvent[];
  timed: boolean;
  totalMs: number | null;
  excluded: boolean;
}

function rewardText(reward: number | null): string {
  return reward === null ? 'no reward' : `R = ${rewardNumber(reward)}`;
}

function privateTestsText(p: PrivateTests | null): string | null {
  if (!p || (p.passed === null && p.failed === null)) return null;
  return `${p.passed ?? 0} passed, ${p.failed ?? 0} failed`;
}

const generations = (n: number) => plural(n, 'generation');

function signed(x: number): string {
  return `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(3)}`;
}

/**
 * The optimiser update the trainer recorded for the rollout (`training.update`): which update it went
 * into, the advantage it was given, the tokens under the loss, and how far behind the sampler was.
 */
function updateText(u: TrainingUpdate, sampledAt: number | null, lag: number | null): Omit<Words, 'flowLabels'> {
  const step = u.step === undefined ? 'update' : `update ${u.step}`;
  const adv = u.advantage === undefined ? null : signed(u.advantage);
  const tokens = u.tokens === undefined ? null : `${plural(u.tokens, 'token')} trained`;
  const clipped = u.clipped ? `, ${u.clipped} stopped by the clip` : '';
  const weights = u.policy_version ? ` (weights ${u.policy_version})` : '';
  const sampled =
    lag === null || lag <= 0
      ? 'It was sampled by these same weights.'
      : `It was sampled ${plural(lag, 'update')} earlier (training_step ${sampledAt}), so the trainer’s log-probabilities differ from old_logprobs.`;
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

/** The words of one event of `record`. */
function words(e: RoleEventFacts, record: Rollout): Words {
  const tag = e.step !== null ? `step ${e.step}` : `segment ${e.segment}`;
  switch (e.kind) {
    case 'generate': {
      const call = e.call ? callText(e.call) : null;
      const what = call ? `one tool call, ${call}` : 'a final answer with no tool call';
      return {
        title: call ? `generate ${call}` : 'generate answer',
        // A rollout converted from a transcript has the text of a generation but no token ids.
        detail: e.tokens > 0 ? `${e.tokens} tokens · log p ${formatLogprob(e.logprob)}` : 'text only, no token ids',
        caption:
          e.tokens > 0
            ? `The model samples ${e.tokens} tokens: ${what}, log-probability ${formatLogprob(e.logprob)}.`
            : `The model generates ${what} (recorded as text, without token ids).`,
        label: `model generates ${call ?? 'a final answer'} (${tag})`,
        flowLabels: [],
      };
    }
    case 'reject': {
      const call = callText(e.call);
      return {
        title: `reject ${e.call.tool}`,
        detail: 'never executed',
        caption: `The harness rejects ${call}: ${clip(e.call.observation?.text ?? 'not a tool it offers', 80)}. The environment never runs it.`,
        label: `harness rejects ${call} (${tag})`,
        flowLabels: [call],
      };
    }
    case 'dispatch': {
      const call = callText(e.call);
      const retried = e.attempts > 1 ? ` The transport retried it ${e.attempts - 1}× under the same call id.` : '';
      return {
        title: `dispatch ${e.call.tool_call_id}`,
        detail: null,
        caption: e.executed
          ? `The harness parses the call and dispatches ${call} to the environment as ${e.call.tool_call_id}.${retried}`
          : `The harness dispatches ${call}, but the environment never executes it (executions: 0).`,
        label: `harness dispatches ${call} (${tag})`,
        flowLabels: e.flows.map((f) => (f.kind === 'action' ? call : e.call.tool_call_id)),
      };
    }
    case 'execute': {
      const call = callText(e.call);
      const duplicate = e.executions > 1 ? ` It ran ${e.executions} times: a duplicate execution.` : '';
      return {
        title: call,
        detail: statusLine(e.call),
        caption: executeCaption(e.call, call) + duplicate,
        label: `environment executes ${call} (${tag})`,
        flowLabels: [],
      };
    }
    case 'observe': {
      const text = observationText(e.call);
      const path = e.toModel ? (e.from === 'environment' ? 'harness → model' : 'model') : 'harness';
      return {
        title: text,
        detail: null,
        caption: e.toModel
          ? `The observation ${quote(text)} goes back through the harness into the model's next context.`
          : `The observation ${quote(text)} returns to the harness; the rollout ends here, so the model never reads it.`,
        label: `observation (${tag}): ${text} — ${e.from} → ${path}`,
        flowLabels: [text],
      };
    }
    case 'grade': {
      const verdict = e.verdict ?? 'no verdict';
      const tests = privateTestsText(e.privateTests);
      const stat = diffStat(e.artifact);
      return {
        title: `verdict ${verdict}`,
        detail: tests ? `private: ${tests}` : null,
        caption: `The grader applies the submitted artifact to its own copy and runs the private tests${tests ? ` (${tests})` : ''}: verdict ${verdict}. The model never sees this.`,
        label: `grader scores the artifact privately: verdict ${verdict}`,
        flowLabels: [`artifact${stat ? ` ${stat}` : ''}`],
      };
    }
    case 'score': {
      const verdict = e.verdict ?? 'no verdict';
      const reward = rewardText(e.reward);
      return {
        title: `private grade: ${verdict} · ${reward}`,
        detail: null,
        caption: `The private grade goes to the trainer only, never back to the model: ${verdict}, ${reward}.`,
        label: `private grade: ${verdict}, ${reward} — grader → trainer only, never to the model`,
        flowLabels: [`private grade: ${verdict} · ${reward}`],
      };
    }
    case 'excluded': {
      const info = terminationInfo(e.termination);
      const why = e.detail ?? info.meaning;
      return {
        title: `${info.label}: ${clip(why, 40)}`,
        detail: "never reaches the trainer's policy signal",
        caption: `${info.label[0]?.toUpperCase() ?? ''}${info.label.slice(1)}: ${why}. The rollout ends at the harness and environment — it never reaches the trainer's policy signal.`,
        label: `${info.label}: ends at the harness and environment, never reaches the trainer's policy signal`,
        flowLabels: [],
      };
    }
    case 'stop': {
      const detail =
        e.detail ??
        (e.actionsUsed !== null && e.maxActions !== null ? `${e.actionsUsed} of ${e.maxActions} actions used` : 'budget exhausted');
      return {
        title: 'stop: budget exhausted',
        detail: clip(detail, 40),
        caption: `The harness stops the rollout: ${detail}. There is nothing to grade; the task contract decides the reward (${rewardText(e.reward)}).`,
        label: 'harness stops the rollout: budget exhausted',
        flowLabels: [],
      };
    }
    case 'consume': {
      const reward = rewardText(e.reward);
      const trained = e.trainedTokens;
      const source =
        e.source === 'private-grade'
          ? 'from the private grade'
          : e.source === 'task-contract'
            ? 'from the task contract (budget exhausted)'
            : `as recorded, with no grader verdict (${terminationInfo(record.termination).label})`;
      return {
        title: `policy signal: ${reward}`,
        detail: trained !== null ? `${trained} tokens under the loss` : 'no training record',
        caption: `The trainer consumes the trajectory (${generations(e.generations)}${trained !== null ? `, ${trained} tokens under the loss` : ''}) with ${reward} ${source}: this rollout is part of the policy signal.`,
        label: `trainer consumes the trajectory and ${reward}`,
        flowLabels: [`trajectory: ${generations(e.generations)}${trained !== null ? ` · ${trained} trained tokens` : ''}`],
      };
    }
    case 'update':
      return { ...updateText(e.update, e.sampledAt, e.lag), flowLabels: [] };
  }
}

/** One role event, worded. */
function wordEvent(e: RoleEventFacts, record: Rollout): RoleEvent {
  const { flowLabels, ...text } = words(e, record);
  return { ...e, ...text, flows: e.flows.map((f, i) => ({ ...f, label: flowLabels[i] ?? '' })) };
}

/**
 * Events worded when first asked for: a long rollout draws a few hundred of its events at a time, and
 * wording all 40,000 of a 10,000-step rollout up front cost the page a long task.
 */
export function lazyWords(events: readonly RoleEventFacts[], record: Rollout): (i: number) => RoleEvent | undefined {
  const worded = new Map<number, RoleEvent>();
  return (i: number) => {
    const facts = events[i];
    if (!facts) return undefined;
    const known = worded.get(i);
    if (known) return known;
    const e = wordEvent(facts, record);
    worded.set(i, e);
    return e;
  };
}

/** The role events of one rollout, all worded. */
export function buildRoleEvents(record: Rollout): RoleTimeline {
  const timeline = roleTimeline(record);
  return { ...timeline, events: timeline.events.map((e) => wordEvent(e, record)) };
}
