import { defaultRules } from '../analysis';
import { READ_OPTIONS, type ReadOption, ReadOptionError, type ReadOptions } from '../format';
import type { ReadParams } from './url';

export interface ReadChoice {
  /** What the load is given: each option only when its value is valid. */
  read: ReadOptions;
  /** The mapping's JSON text as the URL holds it, or null. */
  mappingText: string | null;
  /** Why the URL's mapping is not applied (each problem names the mapping field), or null. */
  mappingProblems: readonly string[] | null;
  unknownAsFinished: boolean;
  /** The default scanner rules are on. */
  scanners: boolean;
  /** The rule file the URL holds (applied only when it parses): its name and how many rules it has. */
  rules: { name: string; count: number } | null;
  /** Why the URL's rule file is not applied (names the rule and field), or null. */
  rulesProblem: string | null;
  /** Every parameter refused, named (`unknown: must be "finished", got "yes"`), in the words the CLI refuses its flag with. */
  problems: string[];
  /**
   * Those of `problems` no control shows beside itself (the mapping's and the rule file's are shown by
   * theirs), with the switch each is: the page says them above the list, and can take them off the link.
   */
  refused: { option: 'unknownAsFinished' | 'scanners'; problem: string }[];
}

/**
 * A parameter read by its option (format/readOptions.ts), as the CLI reads the flag: the value, or the
 * option's default and what is wrong. The page never fails on a link: it leaves the option off and says so.
 */
function readParam<T>(option: ReadOption<T>, raw: string | null): { value: T; problems: readonly string[] | null } {
  if (raw === null) return { value: option.fallback, problems: null };
  try {
    return { value: option.read(raw), problems: null };
  } catch (e) {
    if (!(e instanceof ReadOptionError)) throw e;
    return { value: option.fallback, problems: e.problems };
  }
}

/** The read options a page's address holds, each checked as its CLI flag is. */
export function readChoiceOf(params: ReadParams): ReadChoice {
  const { mapping, unknownAsFinished, scanners, rules } = READ_OPTIONS;
  const map = readParam(mapping, params.map);
  const unknown = readParam(unknownAsFinished, params.unknown);
  const scan = readParam(scanners, params.scan);
  // The page checks a rule file before it puts it in the URL: a refused one is a link edited by hand.
  const file = readParam(rules, params.rules?.text ?? null);
  const ruleSet = file.value ?? (scan.value ? defaultRules() : null);
  const read: ReadOptions = {
    ...(map.value ? { mapping: map.value } : {}),
    ...(unknown.value ? { unknownAsFinished: true } : {}),
    ...(ruleSet ? { rules: ruleSet } : {}),
  };
  const named = (param: string, said: readonly string[] | null) => (said ?? []).map((p) => `${param}: ${p}`);
  const refused = [
    ...named(unknownAsFinished.param, unknown.problems).map((problem) => ({ option: 'unknownAsFinished' as const, problem })),
    ...named(scanners.param, scan.problems).map((problem) => ({ option: 'scanners' as const, problem })),
  ];
  const problems = [...named(mapping.param, map.problems), ...refused.map((r) => r.problem), ...named(rules.param, file.problems)];
  return {
    read,
    mappingText: params.map,
    mappingProblems: map.problems,
    unknownAsFinished: unknown.value,
    scanners: scan.value,
    rules: file.value && params.rules ? { name: params.rules.name, count: file.value.length } : null,
    rulesProblem: file.problems?.join('; ') ?? null,
    problems,
    refused,
  };
}
