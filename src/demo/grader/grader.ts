import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch, parsePatch } from 'diff';
import type { Grading } from '../../format';
import type { Task } from '../tasks';
import { runPythonTests } from '../testrunner/runTests';

const GRADER_NAME = 'trajscope-demo-private-tests';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Content-addressed: the version changes exactly when the private tests or the runner change. */
export function graderInfo(task: Task): { name: string; version: string } {
  const runner = readFileSync(new URL('../testrunner/runner.py', import.meta.url), 'utf8');
  return { name: GRADER_NAME, version: `sha256:${sha256(readFileSync(task.privateTestsPath, 'utf8') + runner).slice(0, 16)}` };
}

/** Applies a git-style unified diff to the task's files; null when it does not apply. */
export function applyArtifact(task: Task, artifact: string): Map<string, string> | null {
  const files = new Map(task.files);
  for (const patch of parsePatch(artifact)) {
    // An empty artifact parses as one empty patch: nothing to apply.
    if (patch.hunks.length === 0) continue;
    const name = (patch.newFileName ?? '').replace(/^b\//, '');
    const before = files.get(name);
    if (before === undefined) return null;
    const after = applyPatch(before, patch);
    if (after === false) return null;
    files.set(name, after);
  }
  return files;
}

/**
 * The grader role: runs the private tests against the submitted artifact in a fresh copy of the
 * task repo of its own, never the rollout's sandbox. Its result goes to the training side only.
 */
export async function grade(task: Task, artifact: string): Promise<Grading> {
  const info = graderInfo(task);
  const base: Grading = { artifact, artifact_digest: `sha256:${sha256(artifact)}`, grader: info };
  const files = applyArtifact(task, artifact);
  if (!files) return { verdict: 'error', private_tests: { passed: [], failed: [] }, ...base };
  const dir = await mkdtemp(join(tmpdir(), 'trajscope-grader-'));
  try {
    for (const [name, text] of files) await writeFile(join(dir, name), text);
    const run = await runPythonTests(dir, task.privateTestsPath);
    const passed = run.results.filter((r) => r.outcome === 'passed').map((r) => r.test);
    const failed = run.results.filter((r) => r.outcome !== 'passed').map((r) => r.test);
    const crashed = (run.signal !== null && !run.timedOut) || (run.exitCode !== 0 && run.exitCode !== 1 && run.results.length === 0);
    const verdict = crashed ? 'error' : failed.length === 0 && passed.length > 0 && !run.timedOut ? 'pass' : 'fail';
    return { verdict, private_tests: { passed, failed }, ...base };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
