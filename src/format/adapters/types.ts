import type { FieldMapping } from './mapping/schema';

/** Formats Trajscope reads: its own v1 and the tools it converts from (docs/formats.md). */
export const FORMAT_IDS = [
  'v1',
  'verifiers-results',
  'verifiers-traces',
  'rllm-episode',
  'openai-chat',
  'swe-agent-traj',
  'inspect-eval',
  'inspect-log',
  'openhands-eval',
  'openhands-events',
  'tau-bench',
  'tau2-bench',
  'nemo-gym',
  'mini-swe-agent',
  'verl-rollouts',
  'harbor-atif',
  'atropos-groups',
  'otel-genai',
  'structural',
  'mapped',
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export function isFormatId(s: string): s is FormatId {
  return (FORMAT_IDS as readonly string[]).includes(s);
}

/** Where a source value sits, and what else the caller knows about it. */
export interface ConvertContext {
  /** The name the file was opened under. */
  file: string;
  /** 1-based line the value starts on. */
  line: number;
  /** A verifiers `metadata.json` read next to `results.jsonl`, when the caller found one. */
  metadata?: unknown;
  /** The field mapping a `mapped` file is read with (`--map`, or the one chosen in the browser). */
  mapping?: FieldMapping;
}

/** Turns one parsed JSON object of the source format into v1 records (not yet validated). */
export type Convert = (value: Record<string, unknown>, ctx: ConvertContext) => Record<string, unknown>[];

/**
 * Thrown by an adapter when the source value does not have the structure of its format; the line then
 * becomes an E_SCHEMA error naming the source field. Never escapes `src/format`.
 */
export class ConvertError extends Error {}

export type { Termination } from '../termination';
