import { type CountedPart, type ScanResult, type ScanTask, scanFile } from './scanFile';

/** What the parent asks a child index process: to read a file or part (pool.ts), or to write a part it read and counted. */
export type Request = { id: number; scan: ScanTask } | { id: number; finish: number; line: number };

/** The answer to request `id`: written, counted (a part waiting for its first line's number), or failed. */
export type Reply = { id: number; ok: ScanResult } | { id: number; counted: number } | { id: number; error: string };

/** The child's side: serve each request, reply by its id, until the parent lets go. */
export function serveScans(): Promise<number> {
  return new Promise((resolve) => {
    process.once('disconnect', () => resolve(0));
    /** Parts read and counted, by the id of the request that read them, until they are written. */
    const counted = new Map<number, CountedPart>();
    const reply = (r: Reply) => process.send?.(r);
    const failed = (id: number) => (e: unknown) => reply({ id, error: e instanceof Error ? e.message : String(e) });
    // Ready: the parent hands out work only to a child that has loaded, so none waits on a slow start.
    process.send?.('ready');
    process.on('message', (request: Request) => {
      if ('scan' in request) {
        scanFile(request.scan).then((read) => {
          if ('finish' in read) {
            counted.set(request.id, read);
            reply({ id: request.id, counted: read.lines });
          } else reply({ id: request.id, ok: read });
        }, failed(request.id));
        return;
      }
      const part = counted.get(request.finish);
      counted.delete(request.finish);
      if (!part) failed(request.id)(new Error(`no part read by request ${request.finish}`));
      else part.finish(request.line).then((ok) => reply({ id: request.id, ok }), failed(request.id));
    });
  });
}
