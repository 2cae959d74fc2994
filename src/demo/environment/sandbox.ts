import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '../tasks';
import { repoDiff } from './diff';
import { CancelledError, InfraError } from './errors';
import { editTool, readFileTool, runTestsTool, type ToolContext } from './tools';
import type { ToolResult } from './types';

/**
 * One rollout's writable environment: a fresh copy of the task repo in its own temp directory.
 * Nothing is shared between sandboxes; `dispose` removes the directory.
 *
 * Calls are idempotent per tool_call_id: a transport retry of a call that already ran gets the
 * stored result and the tool does not run again. `executions` counts real runs, which is what the
 * step records, so a double execution would show up in the data rather than be hidden by the harness.
 */
export class Sandbox {
  private readonly results = new Map<string, ToolResult>();
  private readonly runs = new Map<string, number>();
  /** Infrastructure hook: fault injection gets each test process as it starts. */
  onSpawn: ((child: ChildProcess) => void) | undefined;

  private constructor(
    readonly root: string,
    readonly task: Task,
  ) {}

  static async create(task: Task): Promise<Sandbox> {
    const root = await mkdtemp(join(tmpdir(), 'trajscope-sandbox-'));
    for (const [name, text] of task.files) await writeFile(join(root, name), text);
    return new Sandbox(root, task);
  }

  executions(callId: string): number {
    return this.runs.get(callId) ?? 0;
  }

  async execute(callId: string, tool: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> {
    const done = this.results.get(callId);
    if (done) return done;
    if (signal?.aborted) throw new CancelledError('cancelled before the tool ran');
    await this.ensureAlive();
    this.runs.set(callId, this.executions(callId) + 1);
    const ctx: ToolContext = { root: this.root, task: this.task, signal, onSpawn: this.onSpawn };
    const result = this.scrub(await this.dispatch(ctx, tool, args));
    this.results.set(callId, result);
    return result;
  }

  private async dispatch(ctx: ToolContext, tool: string, args: Record<string, unknown>): Promise<ToolResult> {
    switch (tool) {
      case 'read_file':
        return readFileTool(ctx, args);
      case 'edit':
        return editTool(ctx, args);
      case 'run_tests':
        return runTestsTool(ctx);
      case 'finish':
        return { observation: { text: 'submitted', status: 'ok', truncated: false }, artifact: await this.diff() };
      default:
        // The harness rejects unknown tools before dispatch; reaching this is a harness bug.
        throw new Error(`environment has no tool "${tool}"`);
    }
  }

  /** Unified diff of the repo against the task's files: the artifact `finish` submits. */
  async diff(): Promise<string> {
    await this.ensureAlive();
    const current = new Map<string, string>();
    for (const name of this.task.files.keys()) current.set(name, await readFile(join(this.root, name), 'utf8'));
    return repoDiff(this.task.files, current);
  }

  /** A sandbox that vanished under the rollout is an infrastructure failure, never a tool error. */
  private async ensureAlive(): Promise<void> {
    try {
      await stat(this.root);
    } catch {
      throw new InfraError('the sandbox directory is gone');
    }
  }

  /** Observations never carry the temp path: it would make output differ from run to run. */
  private scrub(r: ToolResult): ToolResult {
    const clean = (s: string) => s.replaceAll(`${this.root}/`, '').replaceAll(this.root, '.');
    return { ...r, observation: { ...r.observation, text: clean(r.observation.text) } };
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
