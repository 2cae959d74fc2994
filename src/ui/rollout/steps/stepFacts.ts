import { timestampMs } from '../../../analysis';
import type { Segment, Step } from '../../../format';
import { formatLogprob } from '../../shared/format';
import { type HighlightLang, languageForPath, looksLikeDiff } from '../../shared/highlight';

export interface GenerationStats {
  tokens: number;
  /** Sum of old_logprobs: the behaviour policy's log-probability of the whole call. */
  logprob: number;
  /** Generated tokens with loss_mask 0 (not trained on). */
  masked: number;
  /** old_logprobs and generated_ids differ in length (E_LOGPROB_LENGTH): the sum covers what is there. */
  lengthMismatch: boolean;
}

export function generationStats(seg: Segment): GenerationStats {
  let logprob = 0;
  for (const lp of seg.old_logprobs) logprob += lp;
  let masked = 0;
  for (const m of seg.loss_mask ?? []) if (m === 0) masked++;
  return { tokens: seg.generated_ids.length, logprob, masked, lengthMismatch: seg.old_logprobs.length !== seg.generated_ids.length };
}

/** The probability exp(logprob), readable at any size. */
export function formatProbability(logprob: number): string {
  const p = Math.exp(logprob);
  if (p >= 0.01) return p.toFixed(2);
  if (p === 0) return `e^${formatLogprob(logprob)}`;
  return p.toExponential(1);
}

export interface ExecutionNote {
  text: string;
  /** `defect`: executed more than once (E_DUPLICATE_EXECUTION); `notice`: retried or not executed. */
  tone: 'defect' | 'notice';
}

/** How often the call was sent and run, said plainly when it is not simply "once". */
export function executionNote(step: Step): ExecutionNote | null {
  const attempts = step.attempts ?? 1;
  const executions = step.executions ?? 1;
  const sent = attempts === 1 ? '1 transport attempt' : `${attempts} transport attempts`;
  if (executions > 1) return { tone: 'defect', text: `${sent}, executed ${executions} times: a duplicate execution` };
  if (executions === 0) return { tone: 'notice', text: `${sent}, never executed` };
  if (attempts > 1) return { tone: 'notice', text: `${sent}, executed once` };
  return null;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

export interface StepTiming {
  /** Start relative to the rollout's start, e.g. "+2.36 s"; null without both times. */
  offset: string | null;
  duration: string | null;
  /** The recorded timestamps, verbatim. */
  title: string;
}

const time = timestampMs;

export function stepTiming(step: Step, rolloutStart: string | undefined): StepTiming | null {
  if (step.started_at === undefined && step.ended_at === undefined) return null;
  const start = time(step.started_at);
  const end = time(step.ended_at);
  const origin = time(rolloutStart);
  const title = [step.started_at && `started ${step.started_at}`, step.ended_at && `ended ${step.ended_at}`].filter(Boolean).join(' · ');
  return {
    offset: start !== null && origin !== null ? `+${formatDuration(start - origin)}` : null,
    duration: start !== null && end !== null && end >= start ? formatDuration(end - start) : null,
    title,
  };
}

/** Tools whose result is a file's content, so the file's extension says how to colour it. */
const READS_FILE = /read|view|cat|open|show/i;

/** The grammar for a step's observation: the content of a source file it read, or a diff; else null. */
export function observationLanguage(step: Step): HighlightLang | null {
  const path = step.args?.path ?? step.args?.file ?? step.args?.file_path;
  if (typeof path === 'string' && READS_FILE.test(step.tool)) {
    const lang = languageForPath(path);
    if (lang) return lang;
  }
  return step.observation?.text && looksLikeDiff(step.observation.text) ? 'diff' : null;
}

export type StatusTone = 'ok' | 'error' | 'timeout' | 'budget' | 'other';

export function statusTone(status: string): StatusTone {
  if (status === 'ok') return 'ok';
  if (status === 'error') return 'error';
  if (status === 'timeout') return 'timeout';
  if (status === 'budget_exceeded') return 'budget';
  return 'other';
}
