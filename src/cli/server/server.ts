import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import sirv from 'sirv';
import type { Catalog, ServedFile } from './catalog';
import { sendFile } from './sendFile';

/** How often the server looks at the served files for growth; the browser is told within this plus a fetch. */
const WATCH_INTERVAL_MS = 500;

export interface ViewServerOptions {
  catalog: Catalog;
  /** The built inspector (vite build output). */
  distDir: string;
}

/**
 * The `trajscope view` server: the built app, the named trajectory files (with ranges), their list, and
 * a server-sent event stream that announces each change of that list (a file grew, appeared, or was
 * replaced). Read-only: anything but GET and HEAD is refused.
 */
export function createViewServer({ catalog, distDir }: ViewServerOptions): Server {
  // Created on first use: `trajscope view` may still be building dist/ when the server starts listening,
  // and sirv (non-dev) lists the folder once, when created.
  let app: ReturnType<typeof sirv> | null = null;
  const watchers = new Set<ServerResponse>();
  let last = '';
  let timer: NodeJS.Timeout | null = null;

  const poll = async () => {
    const files = JSON.stringify(await catalog.list());
    if (files === last) return;
    last = files;
    for (const res of watchers) res.write(`event: files\ndata: ${files}\n\n`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path === '/api/files') {
      const list: ServedFile[] = await catalog.list();
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(list));
      return;
    }
    if (path === '/api/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      res.write(`event: files\ndata: ${JSON.stringify(await catalog.list())}\n\n`);
      watchers.add(res);
      timer ??= setInterval(() => void poll(), WATCH_INTERVAL_MS);
      req.on('close', () => {
        watchers.delete(res);
        if (watchers.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
          last = '';
        }
      });
      return;
    }
    if (path.startsWith('/files/')) {
      // The raw path, not the decoded one: ids are percent-encoded per segment and decoded once, in resolve.
      const rawId = (req.url ?? '').slice('/files/'.length).split('?')[0] ?? '';
      const file = await catalog.resolve(rawId);
      if (!file) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
        return;
      }
      await sendFile(req, res, file);
      return;
    }
    app ??= sirv(distDir, { dev: false, etag: true });
    // sirv pipes a file stream into the response without an error handler: a file of the app that
    // vanished (dist rebuilt under a running server) would crash the process. End that response instead.
    res.once('pipe', (source) => {
      source.once('error', () => res.destroy());
    });
    app(req, res, () => {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('internal error');
    });
  });
  server.on('close', () => {
    if (timer) clearInterval(timer);
    for (const res of watchers) res.end();
  });
  return server;
}
