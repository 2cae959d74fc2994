import { type ChildProcess, fork } from 'node:child_process';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type ScanResult, type ScanTask, scanFile } from './scanFile';
import type { Reply } from './worker';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BIN = join(ROOT, 'bin/trajscope.mjs');

/**
 * The index worker as one plain JS file (esbuild, ~0.2 s, beside node_modules so its packages resolve):
 * a child then starts in about 0.4 s instead of the 1 s tsx spends loading the CLI module by module,
 * which is most of what 2 jobs could gain on a small run. Built by each parallel run from the sources it
 * runs; where it cannot be written (a read-only install), the children run the CLI itself under tsx.
 */
async function workerEntry(): Promise<{ script: string; args: string[] }> {
  // One file per indexing process, deleted when it is done: two runs at once (or two checkouts sharing
  // node_modules) never run each other's worker.
  const out = join(ROOT, `node_modules/.cache/trajscope/index-worker-${process.pid}-${Date.now().toString(36)}.mjs`);
  const tmp = `${out}.tmp`;
  try {
    await build({
      stdin: {
        contents: "import { serveScans } from './src/cli/runIndex/worker.ts';\nawait serveScans();\n",
        resolveDir: ROOT,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      outfile: tmp,
      logLevel: 'silent',
    });
    await rename(tmp, out);
    return { script: out, args: [] };
  } catch {
    await rm(tmp, { force: true }).catch(() => {});
    return { script: BIN, args: ['index', '--worker'] };
  }
}

/**
 * Indexes the files in `jobs` processes (a map over files: each file is one task, and a process takes
 * the next task when it finishes one, the largest first, so one huge file does not start last). Processes,
 * not threads: each is the plain CLI (`trajscope index --worker`), so tsx compiles it like any run, and
 * a crash in one names its file. One of the jobs is this process.
 */
export async function scanAll(tasks: readonly (ScanTask & { size: number })[], jobs: number): Promise<ScanResult[]> {
  const results: ScanResult[] = new Array(tasks.length);
  const order = tasks.map((_, i) => i).sort((a, b) => (tasks[b]?.size ?? 0) - (tasks[a]?.size ?? 0));
  const workers = Math.max(1, Math.min(jobs, tasks.length));
  let next = 0;
  /** Takes tasks until none is left; `scan` runs one here or in a child. */
  const drain = async (scan: (task: ScanTask) => Promise<ScanResult>) => {
    for (let k = next++; k < order.length; k = next++) {
      const i = order[k] ?? 0;
      const task = tasks[i];
      if (task) results[i] = await scan(strip(task));
    }
  };
  const children: ChildProcess[] = [];
  const entry = workers > 1 ? workerEntry() : Promise.resolve({ script: BIN, args: [] });
  try {
    // This process is one of the jobs: it starts at once, while each child loads (0.4 s bundled, 1 s
    // under tsx) before it takes its first file.
    const here = drain(scanFile);
    await Promise.all([
      here,
      ...Array.from({ length: workers - 1 }, async () => {
        const { script, args } = await entry;
        if (next >= order.length) return;
        const child = fork(script, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
        children.push(child);
        const ready = new Promise<void>((resolve, reject) => {
          child.once('message', () => resolve());
          child.once('exit', (code) => reject(new Error(`an index process did not start (exit ${code})`)));
        });
        // Small runs are done here before a child has even loaded: then it is not waited for (and its
        // exit when it is killed is no error).
        ready.catch(() => {});
        await Promise.race([ready, here]);
        if (next >= order.length) return;
        await ready;
        await drain((task) => ask(child, task));
        child.disconnect();
      }),
    ]);
  } finally {
    for (const c of children) if (c.exitCode === null && c.connected) c.kill();
    const { script } = await entry;
    if (script !== BIN) await rm(script, { force: true });
  }
  return results;
}

function strip(task: ScanTask & { size: number }): ScanTask {
  const { size: _size, ...rest } = task;
  return rest;
}

function ask(child: ChildProcess, task: ScanTask): Promise<ScanResult> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null) =>
      reject(new Error(`the index process for ${task.file} ended (${signal ?? `exit ${code}`}) before finishing it`));
    child.once('exit', onExit);
    child.once('message', (reply: Reply) => {
      child.off('exit', onExit);
      if ('ok' in reply) resolve(reply.ok);
      else reject(new Error(`${task.file}: ${reply.error}`));
    });
    child.send(task);
  });
}
