import { readFile } from 'node:fs/promises';
import { type CheckOptions as Checks, defaultRules } from '../analysis';
import { READ_OPTIONS, type ReadOption, ReadOptionError, type ReadOptions, type ScanRule, wholeOption } from '../format';

/*
 * The flags of every command that reads trajectories, read through the one spec of the read options
 * (format/readOptions.ts) the page's address is read through too: a value `lint` refuses, `index`, `view`,
 * `bundle` and the page refuse in the same words (issue 30: `lint --is-cap 0` exited 2, `index --is-cap 0`
 * wrote an index). Here an error names the flag, and the command exits 2.
 */

const { from, maxLineBytes, mapping, unknownAsFinished, scanners, rules, driftThreshold, isCap } = READ_OPTIONS;

/** `parseArgs` options for reading: which format, a field mapping, the longest line read. */
export const READ_FLAGS = {
  [from.flag]: { type: 'string' },
  [mapping.flag]: { type: 'string' },
  [maxLineBytes.flag]: { type: 'string' },
} as const;

/** `parseArgs` options for the checks lint runs on each rollout. */
export const CHECK_FLAGS = {
  [driftThreshold.flag]: { type: 'string' },
  [rules.flag]: { type: 'string' },
  [isCap.flag]: { type: 'string' },
  [unknownAsFinished.flag]: { type: 'boolean', default: unknownAsFinished.fallback },
} as const;

/** The flags' lines in `trajscope --help`, beside the spec so they cannot drift from it. */
export const FLAGS_HELP = `read options (lint, convert, index, bundle):
  --from auto|NAME     the files' format (default: detected per file; docs/formats.md names them)
  --map MAP.json       read your own format by a field mapping (as the page's "Read by a mapping")
  --max-line-bytes N   the longest line read; a longer one is a bad line (default ${maxLineBytes.fallback / 2 ** 20} MiB)
check options (lint, index):
  --drift-threshold NATS   W_LOGPROB_DRIFT past |trainer - sampler| of NATS (default ${driftThreshold.fallback})
  --is-cap C               §10's importance-ratio cap C, a positive number (default ${isCap.fallback})
  --unknown-as-finished    count rollouts with no recorded status as finished for the signal and groups
  --rules default|FILE     run scanner rules (docs/scanners.md): hits are W_SCAN / E_SCAN findings citing steps
`;

/** What the check flags give: every check option but the rules set, which `scanRulesOf` reads. */
export type CheckOptions = Required<Pick<Checks, 'driftThreshold' | 'isCap' | 'unknownAsFinished'>> & Pick<Checks, 'rules'>;

/** A flag's value read by its option: the default when absent, an error naming the flag otherwise. */
function flagValue<T>(option: ReadOption<T>, raw: string | undefined): T {
  if (raw === undefined) return option.fallback;
  try {
    return option.read(raw);
  } catch (e) {
    throw e instanceof ReadOptionError ? new Error(`--${option.flag} ${e.message}`) : e;
  }
}

/** A positive whole number flag (`--jobs`, `--shard-rows`, ...), checked as the read flags are. */
export function wholeFlag(name: string, raw: string | undefined, fallback: number): number {
  return flagValue(wholeOption(name, fallback), raw);
}

/**
 * The read flags' options: `--from`, `--map` (its file read and checked: a mapping that is not valid is an
 * error naming its fields) and `--max-line-bytes`.
 */
export async function readOptionsOf(values: { from?: string; map?: string; 'max-line-bytes'?: string }): Promise<ReadOptions> {
  const format = flagValue(from, values.from);
  const lineBytes = flagValue(maxLineBytes, values['max-line-bytes']);
  if (values.map === undefined) {
    if (format === 'mapped') throw new Error('--from mapped needs --map MAP.json');
    return { from: format, maxLineBytes: lineBytes };
  }
  let text: string;
  try {
    text = await readFile(values.map, 'utf8');
  } catch (e) {
    throw new Error(
      `cannot read the mapping ${values.map}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(e)}`,
    );
  }
  try {
    return { from: 'mapped', mapping: mapping.read(text), maxLineBytes: lineBytes };
  } catch (e) {
    if (!(e instanceof ReadOptionError)) throw e;
    throw new Error(`the mapping ${values.map} is not valid:\n  ${e.problems.join('\n  ')}`);
  }
}

/** The check flags' options. */
export function checkOptionsOf(values: { 'drift-threshold'?: string; 'is-cap'?: string; 'unknown-as-finished'?: boolean }): CheckOptions {
  return {
    driftThreshold: flagValue(driftThreshold, values['drift-threshold']),
    isCap: flagValue(isCap, values['is-cap']),
    unknownAsFinished: values['unknown-as-finished'] === true,
  };
}

/**
 * `--rules default` is the shipped scanners, `--rules FILE` a rule file (docs/scanners.md); absent: no
 * scanners. A rule that does not parse is an error naming the rule and field.
 */
export async function scanRulesOf(value: string | undefined): Promise<readonly ScanRule[] | undefined> {
  if (value === undefined) return undefined;
  if (value === scanners.word) return defaultRules();
  try {
    return rules.read(await readFile(value, 'utf8'));
  } catch (e) {
    throw new Error(`--rules ${value}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
