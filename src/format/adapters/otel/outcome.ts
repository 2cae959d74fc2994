import { compact, isRecord, list, num, rec, str } from '../read';
import type { Termination } from '../types';
import { parseOrText } from './attributes';
import type { Span } from './spans';

/*
 * Why a trace ended and what it was scored, only from what the spans record (docs/formats.md,
 * "OpenTelemetry GenAI traces"): a root span's ERROR status, the last model call's finish reasons,
 * and reward or evaluation attributes. Nothing else is inferred.
 */

const LENGTH = new Set(['length', 'max_tokens', 'max_output_tokens', 'max_completion_tokens', 'model_length']);
const STOP = new Set(['stop', 'end_turn', 'stop_sequence', 'complete', 'completed']);

export interface Ending {
  termination: Termination | 'unknown';
  evidence?: string;
}

/** Text describing a failed span: its status message, `error.type`, its exception events. */
function failure(span: Span): string {
  const parts = [span.statusMessage, str(span.attrs.values['error.type'])];
  for (const e of span.events) {
    if (e.name !== 'exception') continue;
    parts.push(str(e.attrs.values['exception.type']), str(e.attrs.values['exception.message']));
  }
  return parts.filter((p): p is string => p !== undefined && p !== '').join(': ');
}

export interface LastCall {
  finishReasons: string[];
  /** The last call asked for tools, or a tool ran after it. */
  actedAfter: boolean;
}

export function ending(roots: readonly Span[], last: LastCall | undefined): Ending {
  const failed = roots.find((s) => s.status === 'error');
  if (failed) {
    const why = failure(failed);
    const cancelled = /cancel/i.test(why);
    return {
      termination: cancelled ? 'cancelled' : 'infra_failure',
      evidence: `root span ${failed.name ?? failed.spanId ?? ''} has status ERROR${why ? ` (${why})` : ''}`,
    };
  }
  if (!last) return { termination: 'unknown' };
  const reasons = last.finishReasons.map((r) => r.toLowerCase());
  const cut = reasons.find((r) => LENGTH.has(r));
  if (cut) return { termination: 'budget_exhausted', evidence: `the last model call's finish reason is ${cut}` };
  if (reasons.length > 0 && reasons.every((r) => STOP.has(r)) && !last.actedAfter) {
    return { termination: 'finished', evidence: `the last model call stopped (${reasons.join(', ')}) with no tool call after it` };
  }
  return { termination: 'unknown' };
}

export interface Score {
  span_id?: string;
  source: string;
  name?: string;
  value: number;
  label?: string;
  explanation?: string;
}

/**
 * Scores a span records: the GenAI evaluation event `gen_ai.evaluation.result` (or its attributes on the
 * span: `gen_ai.evaluation.score.value`, `.name`, `.score.label`, `.explanation`), Agent Lightning's
 * `agentlightning.reward.N.value` (`.name`), and AgentOps' `agentops.task.output` `{"type": "reward", "value"}`.
 */
export function scoresOf(span: Span): Score[] {
  const out: Score[] = [];
  const evaluation = (a: Span['attrs'], source: string) => {
    const value = a.num('gen_ai.evaluation.score.value');
    if (value === undefined) return false;
    out.push(
      compact({
        span_id: span.spanId,
        source,
        value,
        name: a.str('gen_ai.evaluation.name'),
        label: a.str('gen_ai.evaluation.score.label'),
        explanation: a.str('gen_ai.evaluation.explanation'),
      }),
    );
    return true;
  };
  for (const e of span.events) {
    if (e.name === 'gen_ai.evaluation.result' && evaluation(e.attrs, 'gen_ai.evaluation.result event') && !e.attrs.unused()) e.used = true;
  }
  evaluation(span.attrs, 'gen_ai.evaluation.score.value');
  const whole = span.attrs.values['agentlightning.reward'];
  const agl =
    span.attrs.indexed('agentlightning.reward') ?? (Array.isArray(whole) ? list(span.attrs.get('agentlightning.reward')) : undefined);
  if (typeof whole === 'number' && Number.isFinite(whole)) {
    span.attrs.get('agentlightning.reward');
    out.push({ span_id: span.spanId, source: 'agentlightning.reward', value: whole });
  }
  for (const r of agl ?? []) {
    const value = num(rec(r)?.value);
    if (value !== undefined) out.push(compact({ span_id: span.spanId, source: 'agentlightning.reward', name: str(rec(r)?.name), value }));
  }
  const task = span.attrs.values['agentops.task.output'];
  const payload = typeof task === 'string' ? parseOrText(task) : task;
  if (isRecord(payload) && payload.type === 'reward' && num(payload.value) !== undefined) {
    span.attrs.get('agentops.task.output');
    out.push({ span_id: span.spanId, source: 'agentops.task.output', value: payload.value as number });
  }
  return out;
}

/** The reward: the last score in time order (Agent Lightning's `find_final_reward`), or null. */
export function rewardOf(scores: readonly Score[]): number | null {
  return scores.length > 0 ? (scores[scores.length - 1] as Score).value : null;
}
