#!/usr/bin/env node
// A deliberately WRONG variant of scripts/demo-grader.mjs, to see what `trajscope regrade` shows when a
// grader changes: it misses the timeout case. A private test the runner stopped for running over its
// budget (a search that never ends) counts as passed, so a patch that hangs on some input can pass.
//   trajscope regrade public/demo/rollouts.jsonl --grader "node $PWD/scripts/demo-grader-lenient.mjs" --out DIR
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { register } from 'tsx/esm/api';

register();
const { taskById } = await import('../src/demo/tasks/index.ts');
const { applyArtifact } = await import('../src/demo/grader/grader.ts');
const { runPythonTests } = await import('../src/demo/testrunner/runTests.ts');

const input = JSON.parse(readFileSync(0, 'utf8'));
const task = taskById(input.task_id);
const files = applyArtifact(task, readFileSync(process.env.TRAJSCOPE_ARTIFACT ?? 'artifact.patch', 'utf8'));
if (!files) {
  process.stdout.write(`${JSON.stringify({ reward: 0, verdict: 'error' })}\n`);
} else {
  // The working directory is this rollout's own temporary directory.
  mkdirSync('repo');
  for (const [name, text] of files) writeFileSync(join('repo', name), text);
  const run = await runPythonTests('repo', task.privateTestsPath);
  const passed = run.results.filter((r) => r.outcome !== 'failed').map((r) => r.test); // the bug: over_budget passes
  const failed = run.results.filter((r) => r.outcome === 'failed').map((r) => r.test);
  const verdict = failed.length === 0 && passed.length > 0 ? 'pass' : 'fail';
  process.stdout.write(`${JSON.stringify({ reward: verdict === 'pass' ? 1 : 0, verdict, details: { passed, failed } })}\n`);
}
