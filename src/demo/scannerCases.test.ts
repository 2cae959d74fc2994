import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultRules, LintSession } from '../analysis';
import { parseLine, type Rollout } from '../format';
import { qwen3Tokenizer } from './chat/tokenizer';
import { DEFAULT_DEMO_OPTIONS } from './demoSet';
import { pythonVersion, toJsonl } from './generate';
import { playRollout } from './rollout';
import { generateScannerCases, SCANNER_CASES, scannerCasePlans } from './scannerCases';

/*
 * Guards public/demo/scanner-cases.jsonl (issue 26: "each default scanner rule finds its case in
 * public/demo and nothing in a clean rollout"): the file is what `trajscope demo --scanner-cases` makes,
 * and each default rule hits its own case and nothing else.
 */
const FILE = new URL('../../public/demo/scanner-cases.jsonl', import.meta.url);
const text = readFileSync(FILE, 'utf8');
const records: Rollout[] = text
  .trimEnd()
  .split('\n')
  .map((line, i) => {
    const r = parseLine(line, i + 1, 'scanner-cases.jsonl');
    if (r?.kind !== 'rollout') throw new Error(`line ${i + 1} is not a rollout`);
    return r.value.record;
  });
// The environment version names the Python that ran the tests; another Python makes another file.
const samePython = records[0]?.environment_version?.endsWith(`+python${pythonVersion()}`) === true;

/**
 * Counted by hand from the scripts in scannerCases.ts: the rollout each rule hits and the step each hit
 * cites (null: the rule judges the whole rollout). edit-undone hits twice: step 5 reverts the low fix of
 * step 2, and step 7 undoes that revert.
 */
const EXPECTED_HITS: Record<string, { rollout: string; steps: (number | null)[] }> = {
  'edited-tests': { rollout: 'r-edited-tests', steps: [4] },
  'finished-without-passing-tests': { rollout: 'r-finished-untested', steps: [null] },
  'rewarded-failed-verdict': { rollout: 'r-reward-public-tests', steps: [null] },
  'unrewarded-passed-verdict': { rollout: 'r-reward-inverted', steps: [null] },
  'repeated-call': { rollout: 'r-repeated-call', steps: [3] },
  'edit-undone': { rollout: 'r-edit-undone', steps: [5, 7] },
  'crash-under-finished': { rollout: 'r-crash-under-finished', steps: [4] },
  'infra-error-as-policy-failure': { rollout: 'r-infra-as-tool-error', steps: [3] },
};

function lintWithDefaultRules() {
  const session = new LintSession({ rules: defaultRules() });
  text
    .trimEnd()
    .split('\n')
    .forEach((line, i) => {
      const result = parseLine(line, i + 1, 'scanner-cases.jsonl');
      if (result) session.add(result);
    });
  return session.report();
}

const ruleOf = (message: string) => message.slice(0, message.indexOf(':'));

describe('the scanner cases (public/demo/scanner-cases.jsonl)', () => {
  const report = lintWithDefaultRules();
  const hits = report.rollouts.flatMap((r) =>
    r.findings
      .filter((f) => f.code === 'W_SCAN' || f.code === 'E_SCAN')
      .map((f) => ({ rollout: r.rollout_id, rule: ruleOf(f.message), step: f.step })),
  );

  it('has one case per default rule and a clean rollout, in the file in list order', () => {
    expect(report.parse_errors).toEqual([]);
    expect(records.map((r) => r.rollout_id)).toEqual(SCANNER_CASES.map((c) => c.id));
    expect(SCANNER_CASES.map((c) => c.rule).filter((r) => r !== null)).toEqual(defaultRules().map((r) => r.id));
    expect(Object.keys(EXPECTED_HITS).sort()).toEqual(
      defaultRules()
        .map((r) => r.id)
        .sort(),
    );
    expect(SCANNER_CASES.filter((c) => c.rule === null).map((c) => c.id)).toEqual(['r-clean-article']);
  });

  for (const rule of defaultRules()) {
    it(`${rule.id} hits exactly its own case, at the hand-counted steps`, () => {
      const expected = EXPECTED_HITS[rule.id];
      const mine = hits.filter((h) => h.rule === rule.id);
      expect(mine.map((h) => h.rollout)).toEqual(expected?.steps.map(() => expected.rollout));
      expect(mine.map((h) => h.step)).toEqual(expected?.steps);
      expect(SCANNER_CASES.find((c) => c.id === expected?.rollout)?.rule).toBe(rule.id);
    });
  }

  it('flags nothing in the clean rollout, and apart from the scanner hits the file lints clean', () => {
    expect(report.rollouts.find((r) => r.rollout_id === 'r-clean-article')?.findings).toEqual([]);
    expect(report.rollouts.flatMap((r) => r.findings.filter((f) => f.code !== 'W_SCAN' && f.code !== 'E_SCAN'))).toEqual([]);
    expect(report.groups.flatMap((g) => g.findings)).toEqual([]);
    expect(hits).toHaveLength(9);
  });

  it('shows each behaviour through the system, not by a written field', () => {
    const byId = new Map(records.map((r) => [r.rollout_id, r]));
    // The renamed test is a real edit the grader never sees: its own private tests fail the submission.
    const edited = byId.get('r-edited-tests');
    expect(edited?.grading?.artifact).toContain('+def skip_find_0():');
    expect(edited?.steps?.[4]?.tests?.passed).toEqual(['find 3', 'find 6']);
    expect([edited?.grading?.verdict, edited?.reward]).toEqual(['fail', 0]);
    expect([byId.get('r-reward-public-tests')?.grading?.verdict, byId.get('r-reward-public-tests')?.reward]).toEqual(['fail', 1]);
    expect([byId.get('r-reward-inverted')?.grading?.verdict, byId.get('r-reward-inverted')?.reward]).toEqual(['pass', 0]);
    // The stalled test process: killed by the runner's wall-clock guard, 15 simulated seconds.
    const stalled = byId.get('r-crash-under-finished')?.steps?.[3];
    expect(stalled?.observation?.status).toBe('timeout');
    expect(Date.parse(stalled?.ended_at ?? '') - Date.parse(stalled?.started_at ?? '')).toBe(15_000);
    // The reset connection: three attempts, never executed, and the rollout still in the signal.
    const infra = byId.get('r-infra-as-tool-error');
    expect(infra?.steps?.[2]).toMatchObject({ attempts: 3, executions: 0, observation: { status: 'error' } });
    expect([infra?.termination, infra?.reward]).toEqual(['finished', 1]);
  });

  it('ends the same reset connection as infra_failure, out of the signal, when the harness is configured correctly', async () => {
    const tok = qwen3Tokenizer();
    const plan = scannerCasePlans(tok, DEFAULT_DEMO_OPTIONS.seed).find((p) => p.rolloutId === 'r-infra-as-tool-error');
    if (!plan) throw new Error('no r-infra-as-tool-error plan');
    const r = await playRollout({ ...plan, misclassifyInfra: false }, { tok, python: pythonVersion() });
    expect([r.termination, r.reward, r.training]).toEqual(['infra_failure', null, undefined]);
    expect(r.steps?.[2]?.observation?.text).toMatch(/^infrastructure failure: connection reset by peer/);
  }, 30_000);

  it.skipIf(!samePython)(
    'is what `trajscope demo --scanner-cases` makes',
    async () => {
      expect(toJsonl(await generateScannerCases())).toBe(text);
    },
    // Nine rollouts of real python3 tests, one of which waits out the runner's 15 s wall-clock guard.
    180_000,
  );
});
