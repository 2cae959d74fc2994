import type { ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Task } from '../tasks';
import { runPythonTests, type TestResult } from '../testrunner/runTests';
import { CancelledError, InfraError } from './errors';
import type { Observation, TestLists, ToolResult } from './types';

/** Longest observation text returned to the model; longer output is cut and marked `truncated`. */
const MAX_OBSERVATION_CHARS = 4000;

export interface ToolContext {
  root: string;
  task: Task;
  signal?: AbortSignal;
  onSpawn?: (child: ChildProcess) => void;
}

function observation(text: string, status: Observation['status'] = 'ok', exit_code?: number | null): Observation {
  const truncated = text.length > MAX_OBSERVATION_CHARS;
  const obs: Observation = { text: truncated ? `${text.slice(0, MAX_OBSERVATION_CHARS)}\n[truncated]` : text, status, truncated };
  if (exit_code !== undefined) obs.exit_code = exit_code;
  return obs;
}

const err = (text: string): ToolResult => ({ observation: observation(`error: ${text}`, 'error') });

/** Repos here are flat: a path is one plain file name, which also keeps every access inside the sandbox. */
function fileName(args: Record<string, unknown>): string | null {
  const p = args.path;
  return typeof p === 'string' && /^[A-Za-z0-9_.-]+$/.test(p) && p !== '.' && p !== '..' ? p : null;
}

async function readText(ctx: ToolContext, name: string): Promise<string | null> {
  try {
    return await readFile(join(ctx.root, name), 'utf8');
  } catch (e) {
    if (e instanceof Error && 'code' in e && e.code === 'ENOENT') return null;
    throw e;
  }
}

export async function readFileTool(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const name = fileName(args);
  if (name === null) return err('read_file needs a file name in the repository as "path"');
  const text = await readText(ctx, name);
  return text === null ? err(`no such file: ${name}`) : { observation: observation(text) };
}

export async function editTool(ctx: ToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const name = fileName(args);
  const { old, new: replacement } = args;
  if (name === null || typeof old !== 'string' || typeof replacement !== 'string' || old === '') {
    return err('edit needs "path" (a file name), a non-empty "old" and "new", all strings');
  }
  const text = await readText(ctx, name);
  if (text === null) return err(`no such file: ${name}`);
  const count = text.split(old).length - 1;
  if (count === 0) return err(`old text not found in ${name}`);
  if (count > 1) return err(`old text occurs ${count} times in ${name}; it must occur exactly once`);
  await writeFile(
    join(ctx.root, name),
    text.replace(old, () => replacement),
  );
  return { observation: observation('patch applied') };
}

function lists(results: TestResult[]): TestLists {
  const pick = (o: TestResult['outcome']) => results.filter((r) => r.outcome === o).map((r) => r.test);
  return { passed: pick('passed'), failed: pick('failed'), over_budget: pick('over_budget') };
}

function line(r: TestResult): string {
  const label = r.outcome === 'over_budget' ? 'over budget' : r.outcome;
  return `${r.test}: ${label}${r.detail ? ` (${r.detail})` : ''}`;
}

export async function runTestsTool(ctx: ToolContext): Promise<ToolResult> {
  const run = await runPythonTests(ctx.root, join(ctx.root, ctx.task.testFile), { signal: ctx.signal, onSpawn: ctx.onSpawn });
  if (run.aborted) throw new CancelledError('cancelled while the dev tests ran');
  if (run.signal && !run.timedOut) throw new InfraError(`test process killed by ${run.signal}`);
  const tests = lists(run.results);
  const summary = `${tests.passed.length} passed, ${tests.failed.length} failed, ${tests.over_budget.length} over budget`;
  const body = run.results.map(line);
  if (run.timedOut) {
    // Tests the runner never reported ran out of wall-clock time: that is their budget too.
    const reported = new Set(run.results.map((r) => r.test));
    const missing = await testNames(ctx);
    for (const t of missing.filter((n) => !reported.has(n))) {
      tests.over_budget.push(t);
      body.push(`${t}: over budget (the run hit its wall-clock timeout)`);
    }
    return { observation: observation([...body, 'timed out'].join('\n'), 'timeout', null), tests };
  }
  if (run.exitCode !== 0 && run.exitCode !== 1 && run.results.length === 0) {
    return { observation: observation(`error: the test runner failed\n${run.stderr.trim()}`, 'error', run.exitCode), tests };
  }
  const status = tests.over_budget.length > 0 ? 'budget_exceeded' : 'ok';
  return { observation: observation([...body, summary].join('\n'), status, run.exitCode), tests };
}

/** Test names as the runner derives them, for reporting tests a timeout cut off. */
async function testNames(ctx: ToolContext): Promise<string[]> {
  const src = (await readText(ctx, ctx.task.testFile)) ?? '';
  return [...src.matchAll(/^def test_(\w+)\(/gm)].map((m) => (m[1] ?? '').replaceAll('_', ' '));
}
