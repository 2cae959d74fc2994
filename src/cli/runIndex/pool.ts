import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type ScanResult, type ScanTask, scanFile } from './scanFile';

const BIN = fileURLToPath(new URL('../../../bin/trajscope.mjs', import.meta.url));

type Reply = { ok: ScanResult } | { error: string };

/**
 * Indexes the files in `jobs` processes (a map over files: each file is one task, and a process takes
 * the next task when it finishes one, the largest first, so one huge file does not start last). Processes,
 * not threads: each is the plain CLI (`trajscope index --worker`), so tsx compiles it like any run, and
 * a crash in one names its file. One job runs in this process.
 */
export async function scanAll(tasks: readonly (ScanTask & { size: number })[], jobs: number): Promise<ScanResult[]> {
  const results: ScanResult[] = new Array(tasks.length);
  const order = tasks.map((_, i) => i).sort((a, b) => (tasks[b]?.size ?? 0) - (tasks[a]?.size ?? 0));
  const workers = Math.max(1, Math.min(jobs, tasks.length));
  if (workers === 1) {
    for (const i of order) {
      const task = tasks[i];
      if (task) results[i] = await scanFile(strip(task));
    }
    return results;
  }
  let next = 0;
  const children: ChildProcess[] = [];
  try {
    await Promise.all(
      Array.from({ length: workers }, async () => {
        const child = fork(BIN, ['index', '--worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
        children.push(child);
        for (let k = next++; k < order.length; k = next++) {
          const i = order[k] ?? 0;
          const task = tasks[i];
          if (!task) continue;
          results[i] = await ask(child, strip(task));
        }
        child.disconnect();
      }),
    );
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

/** The child's side: index each file it is sent, reply with its result, until the parent lets go. */
export function serveScans(): Promise<number> {
  return new Promise((resolve) => {
    process.on('message', (task: ScanTask) => {
      scanFile(task).then(
        (ok) => process.send?.({ ok } satisfies Reply),
        (e: unknown) => process.send?.({ error: e instanceof Error ? e.message : String(e) } satisfies Reply),
      );
    });
    process.once('disconnect', () => resolve(0));
  });
}
