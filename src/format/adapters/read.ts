import type { Termination } from './types';

/*
 * Small readers over untyped JSON. Adapters use them instead of casts: a value of the wrong type reads as
 * absent (optional fields) or throws a ConvertError naming the source path (required ones).
 */

export type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function int(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

export function rec(v: unknown): Json | undefined {
  return isRecord(v) ? v : undefined;
}

export function list(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

/** A string id from a string or an integer (sources write both). */
export function idOf(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return String(v);
  return undefined;
}

/** Every element an integer, or null: token ids are copied only when they are token ids. */
export function intArray(v: unknown): number[] | null {
  return Array.isArray(v) && v.every((x): x is number => typeof x === 'number' && Number.isInteger(x)) ? v : null;
}

export function numArray(v: unknown): number[] | null {
  return Array.isArray(v) && v.every((x): x is number => typeof x === 'number' && Number.isFinite(x)) ? v : null;
}

/** The fields of `source` not listed in `mapped`, or undefined when none are left. */
export function unmapped(source: Json, mapped: readonly string[]): Json | undefined {
  const out: Json = {};
  let any = false;
  for (const [k, v] of Object.entries(source)) {
    if (mapped.includes(k) || k === '__proto__') continue;
    out[k] = v;
    any = true;
  }
  return any ? out : undefined;
}

/** Drops keys whose value is undefined, so records serialize without `"x": undefined` noise. */
export function compact<T extends Json>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** Unix seconds (as Python's time.time() writes them) to ISO 8601; undefined for 0 or absent. */
export function isoFromUnixSeconds(v: unknown): string | undefined {
  const n = num(v);
  if (n === undefined || n <= 0) return undefined;
  const d = new Date(n * 1000);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** The location of a record whose source has no rollout id: what a person uses to find it again. */
export function locator(ctx: { file: string; line: number }): string {
  return `${ctx.file}:${ctx.line}`;
}

const EXCLUDED: readonly string[] = ['infra_failure', 'cancelled'] satisfies Termination[];

/**
 * v1 §4 forbids a reward on an excluded rollout (infra_failure, cancelled). A source that still wrote one
 * keeps it under `extra.source_reward` rather than losing it or producing E_EXCLUDED_HAS_REWARD.
 */
export function rewardFor(termination: string, reward: number | null, extra: Json): number | null {
  if (reward !== null && EXCLUDED.includes(termination)) {
    extra.source_reward = reward;
    return null;
  }
  return reward;
}

/** Policy versions a rollout was generated under, as one v1 string: `7`, or `7..9` when it spans several. */
export function policySpan(versions: readonly number[]): string | undefined {
  if (versions.length === 0) return undefined;
  const lo = Math.min(...versions);
  const hi = Math.max(...versions);
  return lo === hi ? String(lo) : `${lo}..${hi}`;
}
