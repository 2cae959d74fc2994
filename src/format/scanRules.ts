import { lazily, z } from './zod';

/*
 * Scanner rules: declarative checks of behaviour over a rollout's steps, reward and verdict (issue 26;
 * docs/scanners.md). A rule file is JSON `{"rules": [...]}`; each rule has an id, a title, a severity and
 * conditions, all of which must hold. Parsed and checked here, once: a rule that does not parse is one
 * error naming the rule and the field. Regexes are JavaScript's, case-insensitive unless the rule says.
 */

/** The rule file's schemas, built on first use (a page that never reads a rule file never builds them). */
const ruleSchemas = lazily(() => {
  /** A tool name pattern: `edit` is exactly edit (any case), `*` any run of characters, `|` alternatives. */
  const toolPattern = z.string().min(1);
  const regex = z.string().min(1);

  /** What one step must look like. Every given condition must hold. */
  const stepMatch = z.strictObject({
    tool: toolPattern.optional(),
    /** A regex over the step's arguments written as JSON, or per argument name a regex over its value. */
    args: z.union([regex, z.record(z.string(), regex)]).optional(),
    /** A regex over the observation text. */
    observation: regex.optional(),
    /** The observation's status is one of these. */
    status: z.array(z.string()).min(1).optional(),
    /** The step's test results: every test passed (and some ran), or some failed or ran over budget. */
    tests: z.enum(['all-passed', 'some-failed']).optional(),
  });

  const comparison = z.strictObject({
    op: z.enum(['>', '>=', '<', '<=', '=', '!=']),
    value: z.number(),
  });

  /** What the whole rollout must be for the rule to look at it at all. */
  const rolloutMatch = z.strictObject({
    termination: z.array(z.string()).min(1).optional(),
    /** The reward compared; a rollout with no reward never matches a reward condition. */
    reward: comparison.optional(),
    /** The grader's private verdict (grading.verdict) is one of these. */
    verdict: z.array(z.string()).min(1).optional(),
    /** In the policy signal (finished or budget_exhausted) or not. */
    in_signal: z.boolean().optional(),
    /** A regex over the text the model generated (decoded or recorded), any generation. */
    generated: regex.optional(),
  });

  const scanRuleSchema = z
    .strictObject({
      id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'expected lower-case words joined by "-", such as "edited-tests"'),
      title: z.string().min(1),
      severity: z.enum(['error', 'warning']),
      /** Why the behaviour matters: shown with each hit. */
      why: z.string().optional(),
      when: rolloutMatch.optional(),
      /** A hit at every step that matches. */
      step: stepMatch.optional(),
      /** A hit when the same call (tool and arguments) comes this many times in a row, or more. */
      repeat: z.strictObject({ times: z.int().min(2), step: stepMatch.optional() }).optional(),
      /** A hit on the rollout when no step matches. */
      none: stepMatch.optional(),
      /** A hit at every regression of these kinds (an edit reverted, tests that passed failing, flaky tests). */
      regression: z
        .array(z.enum(['revert', 'test', 'flaky']))
        .min(1)
        .optional(),
    })
    .refine((r) => [r.step, r.repeat, r.none, r.regression].filter((x) => x !== undefined).length <= 1, {
      message:
        'give at most one of "step", "repeat", "none" and "regression" (a rule with none of them hits the rollout when "when" holds)',
    });

  const ruleFileSchema = z.strictObject({ description: z.string().optional(), rules: z.array(z.unknown()) });
  return { rule: scanRuleSchema, stepMatch, file: ruleFileSchema };
});

type RuleSchemas = ReturnType<typeof ruleSchemas>;
export type ScanRule = z.infer<RuleSchemas['rule']>;
export type StepMatch = z.infer<RuleSchemas['stepMatch']>;

export class ScanRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScanRuleError';
  }
}

/** The regexes of a rule, each compiled once: a bad one is an error naming the rule and field. */
function checkRegexes(rule: ScanRule, where: string): void {
  const check = (field: string, source: string | undefined) => {
    if (source === undefined) return;
    try {
      new RegExp(source, 'i');
    } catch (e) {
      throw new ScanRuleError(`${where}.${field}: not a regular expression (${e instanceof Error ? e.message : String(e)})`);
    }
  };
  const matches: [string, StepMatch | undefined][] = [
    ['step', rule.step],
    ['repeat.step', rule.repeat?.step],
    ['none', rule.none],
  ];
  for (const [field, m] of matches) {
    if (!m) continue;
    check(`${field}.observation`, m.observation);
    if (typeof m.args === 'string') check(`${field}.args`, m.args);
    else for (const [k, v] of Object.entries(m.args ?? {})) check(`${field}.args.${k}`, v);
  }
  check('when.generated', rule.when?.generated);
}

/** Parses a rule file; throws a ScanRuleError naming the rule (by id or position) and the field. */
export function parseScanRules(text: string): ScanRule[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ScanRuleError(`not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const schemas = ruleSchemas();
  const file = schemas.file.safeParse(value);
  if (!file.success) throw new ScanRuleError('expected {"rules": [...]} (docs/scanners.md)');
  const seen = new Set<string>();
  return file.data.rules.map((raw, i) => {
    const id =
      typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string' ? (raw as { id: string }).id : null;
    const where = id === null ? `rules[${i}]` : `rule "${id}"`;
    const parsed = schemas.rule.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      throw new ScanRuleError(`${where}${field}: ${issue?.message ?? 'not a rule'}`);
    }
    if (seen.has(parsed.data.id)) throw new ScanRuleError(`${where}: the id is used twice`);
    seen.add(parsed.data.id);
    checkRegexes(parsed.data, where);
    return parsed.data;
  });
}
