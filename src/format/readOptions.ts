import { type FieldMapping, FORMAT_IDS, type FormatId, isFormatId, MappingError, parseFieldMapping } from './adapters';
import { shownValue } from './json';
import { DEFAULT_MAX_LINE_BYTES } from './jsonl';
import { parseScanRules, type ScanRule, ScanRuleError } from './scanRules';

/*
 * How trajectories are read and checked, said once for the command line and the page (issue 30): each
 * option's flag, its URL parameter (null where the page has none), what it takes, its default and the
 * check of a value. The CLI's flags (src/cli/readOptions.ts) and the page's address (src/state/readChoice.ts)
 * are read through it, so what one refuses the other refuses in the same words; the CLI then exits 2, and
 * the page leaves the option off and keeps why (ReadChoice: the mapping's and the rule file's are shown
 * beside their controls).
 */

/** Default W_LOGPROB_DRIFT threshold, in nats. */
export const DEFAULT_DRIFT_THRESHOLD = 1.0;

/** §10's default truncated-importance-sampling cap C (`--is-cap`). */
export const DEFAULT_IS_CAP = 2.0;

/** How sources are read: the CLI's `--from`, `--max-line-bytes`, `--map`, and the page's URL-held choices. */
export interface ReadOptions {
  /** The source format; `auto` (the default) detects it from the first JSON object. */
  from?: FormatId | 'auto';
  /** The longest line read (see DEFAULT_MAX_LINE_BYTES); a longer one is one error, skipped without being held. */
  maxLineBytes?: number;
  /** Every record is read through this field mapping (`--map`, the page's `map`). */
  mapping?: FieldMapping;
  /** Rollouts with no recorded termination count as finished for the signal (an explicit choice, never silent). */
  unknownAsFinished?: boolean;
  /** Scanner rules (docs/scanners.md), already parsed: data, so the parse workers get them as they are. */
  rules?: readonly ScanRule[];
}

/** What is wrong with an option's value, in words that do not name it: the CLI says `--is-cap`, the page `unknown`. */
export class ReadOptionError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'ReadOptionError';
  }
}

/** One option, as both sides read it. */
export interface ReadOption<T> {
  /** The CLI flag, without `--`. */
  flag: string;
  /** The page's URL parameter, or null where only the CLI takes the option. */
  param: string | null;
  /** What a value must be, as an error says it. */
  takes: string;
  /** The value when the option is not given. */
  fallback: T;
  /** The value from its text (a flag's argument, a parameter's value, a file's JSON); throws ReadOptionError. */
  read(text: string): T;
}

const refuse = (takes: string, text: string): never => {
  throw new ReadOptionError([`must be ${takes}, got ${shownValue(text)}`]);
};

function numberOption<F extends string>(flag: F, takes: string, fallback: number, ok: (n: number) => boolean) {
  return {
    flag,
    param: null,
    takes,
    fallback,
    read(text: string): number {
      const n = text.trim() === '' ? Number.NaN : Number(text);
      return ok(n) ? n : refuse(takes, text);
    },
  } satisfies ReadOption<number>;
}

/** A positive whole number option (`--max-line-bytes`, and the CLI's own `--jobs`, `--shard-rows`, ...). */
export function wholeOption<F extends string>(flag: F, fallback: number, takes = 'a positive whole number') {
  return numberOption(flag, takes, fallback, (n) => Number.isSafeInteger(n) && n >= 1);
}

/** An option that is on or off: `param=word` in the page's address; on the CLI a flag of its own, or `word` as a flag's value. */
function switchOption<F extends string, P extends string, W extends string>(flag: F, param: P, word: W) {
  return {
    flag,
    param,
    word,
    takes: JSON.stringify(word),
    fallback: false,
    read: (text: string): boolean => text === word || refuse(JSON.stringify(word), text),
  } satisfies ReadOption<boolean> & { word: W };
}

const FORMATS_TAKEN = `auto or a format name (${FORMAT_IDS.join(', ')})`;

/** `--rules FILE`, the page's `rules` (the file's JSON text, shown by the name in `rulesname`). */
const ruleFile = {
  flag: 'rules',
  param: 'rules',
  nameParam: 'rulesname',
  takes: '"default" or a rule file (docs/scanners.md)',
  fallback: undefined,
  read(text: string): ScanRule[] {
    try {
      return parseScanRules(text);
    } catch (e) {
      throw new ReadOptionError([e instanceof ScanRuleError ? e.message : String(e)]);
    }
  },
} as const satisfies ReadOption<ScanRule[] | undefined> & { nameParam: string };

export const READ_OPTIONS = {
  from: {
    flag: 'from',
    param: null,
    takes: FORMATS_TAKEN,
    fallback: 'auto',
    read: (text: string): FormatId | 'auto' => (text === 'auto' || isFormatId(text) ? text : refuse(FORMATS_TAKEN, text)),
  },
  maxLineBytes: wholeOption('max-line-bytes', DEFAULT_MAX_LINE_BYTES, 'a positive whole number of bytes'),
  mapping: {
    flag: 'map',
    param: 'map',
    takes: 'a field mapping (docs/formats.md)',
    fallback: undefined,
    read(text: string): FieldMapping {
      try {
        return parseFieldMapping(text);
      } catch (e) {
        throw new ReadOptionError(e instanceof MappingError ? e.problems : [String(e)]);
      }
    },
  },
  unknownAsFinished: switchOption('unknown-as-finished', 'unknown', 'finished'),
  /** `--rules default`, the page's `scan=default`: the shipped rule set (analysis's `defaultRules()`). */
  scanners: switchOption('rules', 'scan', 'default'),
  rules: ruleFile,
  driftThreshold: numberOption(
    'drift-threshold',
    'a non-negative number of nats',
    DEFAULT_DRIFT_THRESHOLD,
    (n) => Number.isFinite(n) && n >= 0,
  ),
  // §10's cap C: a ratio r = exp(d) > C is clipped. A cap of 0 or below would clip every ratio, which is
  // no statistic, so it is refused rather than reported.
  isCap: numberOption(
    'is-cap',
    `a positive number (the importance-ratio cap C, default ${DEFAULT_IS_CAP})`,
    DEFAULT_IS_CAP,
    (n) => Number.isFinite(n) && n > 0,
  ),
} as const satisfies Record<string, ReadOption<unknown>>;

export type ReadOptionName = keyof typeof READ_OPTIONS;
