import { type ChildProcess, fork } from 'node:child_process';
import { type ScanResult, type ScanTask, scanFile } from './scanFile';
import type { Reply } from './worker';
import { indexWorkerEntry } from './workerBundle';

/**
 * Indexes the files in `jobs` processes (a map over files: each file is one task, and a process takes
 * the next task when it finishes one, the largest first, so one huge file does not start last). Processes,
 * not threads: a crash in one (a line that exhausts its heap) names its file and leaves the others' heaps
 * alone. Each child runs the bundled worker (workerBundle.ts). One of the jobs is this process.
 */
/** Where an index run's time goes, for the bench: a job's start (ready), and each file it took (ms since the run began). */
export interface PoolTrace {
  ready: number[];
  files: { job: number; file: string; from: number; to: number }[];
}

export async function scanAll(
  tasks: readonly (ScanTask & { size: number })[],
  jobs: number,
  trace?: { began: number; pool: PoolTrace },
): Promise<ScanResult[]> {
  const results: ScanResult[] = new Array(tasks.length);
  const order = tasks.map((_, i) => i).sort((a, b) => (tasks[b]?.size ?? 0) - (tasks[a]?.size ?? 0));
  const workers = Math.max(1, Math.min(jobs, tasks.length));
  let next = 0;
  const since = () => performance.now() - (trace?.began ?? 0);
  /** Takes tasks until none is left; `scan` runs one here or in a child (job `job`). */
  const drain = async (job: number, scan: (task: ScanTask) => Promise<ScanResult>) => {
    trace?.pool.ready.push(since());
    for (let k = next++; k < order.length; k = next++) {
      const i = order[k] ?? 0;
      const task = tasks[i];
      const from = since();
      if (task) results[i] = await scan(strip(task));
      if (task) trace?.pool.files.push({ job, file: task.file, from, to: since() });
    }
  };
  const children: ChildProcess[] = [];
  const entry = workers > 1 ? indexWorkerEntry() : null;
  try {
    // This process is one of the jobs: it starts at once, while each child loads (0.3 s bundled, 1 s
    // under tsx) before it takes its first file.
    const here = drain(0, scanFile);
    await Promise.all([
      here,
      ...Array.from({ length: workers - 1 }, async (_, j) => {
        if (!entry) return;
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
        await drain(j + 1, (task) => ask(child, task));
        child.disconnect();
      }),
    ]);
  } finally {
    for (const c of children) if (c.exitCode === null && c.connected) c.kill();
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
