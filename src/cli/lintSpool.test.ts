import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_DRIFT_THRESHOLD, DEFAULT_IS_CAP, LintSession } from '../analysis';
import { buildRollout, MINIMAL_RECORD_LINE, toJsonl } from '../testing/builders';
import { readJsonlFile } from './readFile';
import { cliTokenText } from './tokenText';

const run = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/trajscope.mjs');
const DEMO = join(import.meta.dirname, '../../public/demo/rollouts.jsonl');
const dir = mkdtempSync(join(tmpdir(), 'trajscope-lint-spool-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What `lint --json` wrote before it spooled: the whole report, held, then `JSON.stringify(report, null, 2)`. */
async function wholeReport(files: string[], normalizeStd: boolean): Promise<string> {
  const session = new LintSession({ driftThreshold: DEFAULT_DRIFT_THRESHOLD, isCap: DEFAULT_IS_CAP, tokenText: cliTokenText });
  for (const file of files) session.addLineCount((await readJsonlFile(file, (r) => session.add(r))).lines);
  const report = session.report(normalizeStd);
  // The report's fields of §8: a rollout's failure signature is for the page and the index, not `lint --json`.
  const rollouts = report.rollouts.map(({ failure: _failure, ...r }) => r);
  return `${JSON.stringify({ ...report, rollouts }, null, 2)}\n`;
}

async function lintJson(args: string[]): Promise<{ code: number; stdout: string }> {
  try {
    return { code: 0, stdout: (await run(process.execPath, [BIN, 'lint', '--json', ...args], { maxBuffer: 1 << 28 })).stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string };
    return { code: err.code, stdout: err.stdout };
  }
}

describe('lint --json, spooled to disk', () => {
  const twin = buildRollout({ task_id: 'bs', rollout_id: 'r-2', reward: 1 });
  const bad = join(dir, 'bad-lines.jsonl');
  writeFileSync(
    bad,
    toJsonl([
      MINIMAL_RECORD_LINE,
      '{"task_id": "t", "rollout_id": ',
      twin,
      '[1, 2, 3]',
      buildRollout({ task_id: 'bs', rollout_id: '__proto__', reward: 0 }),
      twin,
      'not json',
      { task_id: 'bs', segments: [], termination: 'finished', reward: 1 },
      twin,
    ]),
  );
  const cases = [
    ['the demo', [DEMO]],
    ['a file of bad lines and duplicates', [bad]],
    ['both, one duplicate across them', [bad, DEMO, bad]],
  ] as const;
  for (const [label, files] of cases) {
    it(`writes ${label} byte for byte as the whole report did (GRPO and Dr. GRPO)`, async () => {
      for (const dr of [false, true]) {
        const out = await lintJson([...files, ...(dr ? ['--dr-grpo'] : [])]);
        expect(out.code).toBe(1);
        expect(out.stdout).toBe(await wholeReport([...files], !dr));
      }
    }, 60_000);
  }

  it('writes an empty file as before: empty arrays, exit 0', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const out = await lintJson([empty]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(await wholeReport([empty], true));
    expect(JSON.parse(out.stdout).parse_errors).toEqual([]);
  });
});
