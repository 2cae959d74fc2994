#!/usr/bin/env node
// The demo's own private verifier (src/demo/grader) as a `trajscope regrade` grader:
//   trajscope regrade public/demo/rollouts.jsonl --grader "node $PWD/scripts/demo-grader.mjs" --out DIR
// It reads the task from stdin (task_id) and the stored patch from its working directory (artifact.patch),
// applies the patch to a fresh copy of the task's repository and runs the private tests, exactly as the
// demo harness graded the rollout; it prints {"reward", "verdict", "details"}. The path must be absolute:
// the grader runs in a temporary directory.
import { readFileSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const { taskById } = await import('../src/demo/tasks/index.ts');
const { grade } = await import('../src/demo/grader/grader.ts');

const input = JSON.parse(readFileSync(0, 'utf8'));
const artifact = readFileSync(process.env.TRAJSCOPE_ARTIFACT ?? 'artifact.patch', 'utf8');
const grading = await grade(taskById(input.task_id), artifact);
// The demo contract: pass -> 1, fail -> 0 (a patch that does not apply is "error", and no reward).
const reward = grading.verdict === 'pass' ? 1 : 0;
process.stdout.write(`${JSON.stringify({ reward, verdict: grading.verdict, details: grading.private_tests })}\n`);
