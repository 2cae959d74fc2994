import { type ScanResult, type ScanTask, scanFile } from './scanFile';

/** What a child index process answers for each file (pool.ts hands out the files). */
export type Reply = { ok: ScanResult } | { error: string };

/** The child's side: index each file it is sent, reply with its result, until the parent lets go. */
export function serveScans(): Promise<number> {
  return new Promise((resolve) => {
    process.once('disconnect', () => resolve(0));
    // Ready: the parent hands out files only to a child that has loaded, so none waits on a slow start.
    process.send?.('ready');
    process.on('message', (task: ScanTask) => {
      scanFile(task).then(
        (ok) => process.send?.({ ok } satisfies Reply),
        (e: unknown) => process.send?.({ error: e instanceof Error ? e.message : String(e) } satisfies Reply),
      );
    });
  });
}
