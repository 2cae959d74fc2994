import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LintSession } from '../analysis';
import { parseLine } from '../format';
import { DEFAULT_DEMO_OPTIONS } from './demoSet';
import { generateDemo, pythonVersion, toJsonl } from './generate';

/*
 * Guards public/demo/rollouts.jsonl and its README: the file is what the documented command makes,
 * and lint finds exactly the findings the README lists as planted. Update all three together.
 */
const FILE = new URL('../../public/demo/rollouts.jsonl', import.meta.url);
const text = readFileSync(FILE, 'utf8');
const firstLine = parseLine(text.slice(0, text.indexOf('\n')), 1, 'rollouts.jsonl');
const recordedEnv = firstLine?.kind === 'rollout' ? firstLine.value.record.environment_version : undefined;
// The environment version names the Python that ran the tests; another Python makes another file.
const samePython = recordedEnv?.endsWith(`+python${pythonVersion()}`) === true;

/** public/demo/README.md, "Planted findings". */
const PLANTED_ROLLOUT_FINDINGS: Record<string, string[]> = {
  'r-compacted': ['E_TRAINING_CONTEXT', 'E_TRAINING_CONTEXT', 'E_TRAINING_CONTEXT', 'E_TRAINING_MASK', 'W_CONTEXT_REWRITTEN'],
  'r-retokenized': [...Array(6).fill('E_TRAINING_CONTEXT'), 'E_TRAINING_MASK'],
};
const PLANTED_GROUP_FINDINGS: Record<string, string[]> = { 'g2:lower-bound-001@v-2': ['W_ZERO_VARIANCE_GROUP'] };

describe('the committed demo file', () => {
  it('lints to exactly the planted findings', () => {
    const session = new LintSession();
    text
      .trimEnd()
      .split('\n')
      .forEach((line, i) => {
        const result = parseLine(line, i + 1, 'rollouts.jsonl');
        if (result) session.add(result);
      });
    const report = session.report();
    expect(report.parse_errors).toEqual([]);
    expect(report.summary.rollouts).toBe(44);
    // r-bf16-sampler lints clean: its sampler disagrees with the trainer by far less than W_LOGPROB_DRIFT's
    // threshold, and only §10's statistics show it (README: "sampler precision").
    const bf16 = report.rollouts.find((r) => r.rollout_id === 'r-bf16-sampler')?.mismatch;
    expect(bf16?.max_abs).toBeGreaterThan(1e-5);
    expect(bf16?.max_abs).toBeLessThan(1e-2);
    expect(report.rollouts.filter((r) => (r.mismatch?.max_abs ?? 0) > 0).map((r) => r.rollout_id)).toEqual(['r-bf16-sampler']);
    const found: Record<string, string[]> = {};
    for (const r of report.rollouts) {
      if (r.findings.length > 0) found[r.rollout_id] = r.findings.map((f) => f.code).sort();
    }
    expect(found).toEqual(PLANTED_ROLLOUT_FINDINGS);
    const groups: Record<string, string[]> = {};
    for (const g of report.groups) if (g.findings.length > 0) groups[g.group_id] = g.findings.map((f) => f.code).sort();
    expect(groups).toEqual(PLANTED_GROUP_FINDINGS);
  });

  it.skipIf(!samePython)(
    'is what `trajscope demo` makes with the default options',
    async () => {
      expect(toJsonl(await generateDemo(DEFAULT_DEMO_OPTIONS))).toBe(text);
    },
    // 44 rollouts of real python3 tests: about 10 s on a quiet machine, over 60 s at load average 25.
    180_000,
  );
});
