import { readFile } from 'node:fs/promises';
import { DEFAULT_DRIFT_THRESHOLD, DEFAULT_IS_CAP, DEFAULT_RULES } from '../analysis';
import { DEFAULT_MAX_LINE_BYTES, parseScanRules, type ScanRule } from '../format';
import { type ReadOptions, readFormatOptions } from './readFile';

/*
 * How files are read and checked, one spec for every command that reads trajectories: the flags, their
 * defaults and what each accepts are said once, so `lint --is-cap 0` and `index --is-cap 0` cannot
 * disagree again (issue 30: one exited 2, the other wrote an index).
 */

/** `parseArgs` options for reading: which format, a field mapping, the longest line read. */
export const READ_FLAGS = {
  from: { type: 'string' },
  map: { type: 'string' },
  'max-line-bytes': { type: 'string' },
} as const;

/** `parseArgs` options for the checks lint runs on each rollout. */
export const CHECK_FLAGS = {
  'drift-threshold': { type: 'string' },
  rules: { type: 'string' },
  'is-cap': { type: 'string' },
  'unknown-as-finished': { type: 'boolean', default: false },
} as const;

/** The flags' lines in `trajscope --help`, beside the spec so they cannot drift from it. */
export const FLAGS_HELP = `read options (lint, convert, index, bundle):
  --from auto|NAME     the files' format (default: detected per file; docs/formats.md names them)
  --map MAP.json       read your own format by a field mapping (as the page's "Read by a mapping")
  --max-line-bytes N   the longest line read; a longer one is a bad line (default ${DEFAULT_MAX_LINE_BYTES / 2 ** 20} MiB)
check options (lint, index):
  --drift-threshold NATS   W_LOGPROB_DRIFT past |trainer - sampler| of NATS (default ${DEFAULT_DRIFT_THRESHOLD})
  --is-cap C               §10's importance-ratio cap C, a positive number (default ${DEFAULT_IS_CAP})
  --unknown-as-finished    count rollouts with no recorded status as finished for the signal and groups
  --rules default|FILE     run scanner rules (docs/scanners.md): hits are W_SCAN / E_SCAN findings citing steps
`;

export interface CheckOptions {
  driftThreshold: number;
  isCap: number;
  unknownAsFinished: boolean;
  /** `--rules` read by `scanRulesOf` (async: it may read a file), absent without the flag. */
  rules?: readonly ScanRule[];
}

/** A flag's number, or its default when absent; an error naming the flag and what it takes otherwise. */
function numberFlag(name: string, raw: string | undefined, fallback: number, ok: (n: number) => boolean, takes: string): number {
  if (raw === undefined) return fallback;
  const n = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!ok(n)) throw new Error(`--${name} must be ${takes}, got "${raw}"`);
  return n;
}

const whole = (n: number) => Number.isSafeInteger(n) && n >= 1;

/** A positive whole number flag (`--jobs`, `--shard-rows`, ...), checked as the read flags are. */
export function wholeFlag(name: string, raw: string | undefined, fallback: number): number {
  return numberFlag(name, raw, fallback, whole, 'a positive whole number');
}

/** The read flags' options: `--from`, `--map` (read and validated) and `--max-line-bytes`. */
export async function readOptionsOf(values: { from?: string; map?: string; 'max-line-bytes'?: string }): Promise<ReadOptions> {
  const maxLineBytes = numberFlag(
    'max-line-bytes',
    values['max-line-bytes'],
    DEFAULT_MAX_LINE_BYTES,
    whole,
    'a positive whole number of bytes',
  );
  return { ...(await readFormatOptions(values)), maxLineBytes };
}

/** The check flags' options. */
export function checkOptionsOf(values: { 'drift-threshold'?: string; 'is-cap'?: string; 'unknown-as-finished'?: boolean }): CheckOptions {
  return {
    driftThreshold: numberFlag(
      'drift-threshold',
      values['drift-threshold'],
      DEFAULT_DRIFT_THRESHOLD,
      (n) => Number.isFinite(n) && n >= 0,
      'a non-negative number of nats',
    ),
    // §10's cap C: a ratio r = exp(d) > C is clipped. A cap of 0 or below would clip every ratio, which is
    // no statistic, so it is refused rather than reported.
    isCap: numberFlag(
      'is-cap',
      values['is-cap'],
      DEFAULT_IS_CAP,
      (n) => Number.isFinite(n) && n > 0,
      `a positive number (the importance-ratio cap C, default ${DEFAULT_IS_CAP})`,
    ),
    unknownAsFinished: values['unknown-as-finished'] === true,
  };
}

/**
 * `--rules default` is the shipped scanners, `--rules FILE` a rule file (docs/scanners.md); absent: no
 * scanners. A rule that does not parse is an error naming the rule and field (`ScanRuleError`).
 */
export async function scanRulesOf(value: string | undefined): Promise<readonly ScanRule[] | undefined> {
  if (value === undefined) return undefined;
  if (value === 'default') return DEFAULT_RULES;
  try {
    return parseScanRules(await readFile(value, 'utf8'));
  } catch (e) {
    throw new Error(`--rules ${value}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
