import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import sirv from 'sirv';
import type { Catalog, ServedFile } from './catalog';
import { ChangeFeed } from './changes';
import { allowedHosts, refusal, setSecurityHeaders } from './guard';
import { QUEUE_URL, type QueueFile, serveQueue } from './queue';
import { REGRADE_URL, type RegradeFile, serveRegrade } from './regrade';
import type { ReviewLog } from './reviewLog';
import { REVIEWS_URL, serveReviews } from './reviews';
import { RUN_MOUNT, type RunMount, serveRun } from './runMount';
import { serveSearch } from './search';
import { sendFile } from './sendFile';

export interface ViewServerOptions {
  catalog: Catalog;
  /** The built inspector (vite build output). */
  distDir: string;
  /** The address the server is bound to: requests must name it or a loopback name in `Host`. */
  host?: string;
  /** A run directory opened as a run: its index and files under `/run/` (runMount.ts). */
  run?: RunMount;
  /**
   * Asked while no run is mounted, as the served list changes and when a page asks: a directory that has
   * become a run since `view` started returns its mount, and open pages are told (`event: run`).
   */
  becomeRun?: () => Promise<RunMount | undefined>;
  /** The served directory's review log (docs/adr/0026): absent when named files are served, not one directory. */
  reviews?: ReviewLog;
  /** The served directory's review queue (docs/review-queue.md), read only; absent as `reviews` is. */
  queue?: QueueFile;
  /** The served directory's regrade table (RUN/.trajscope/regrade/regrade.parquet), read only; absent as `reviews` is. */
  regrade?: RegradeFile;
}

/**
 * The `trajscope view` server: the built app, the named trajectory files (with ranges), their list, and
 * a server-sent event stream that announces each change of that list (a file grew, appeared, or was
 * replaced) and each review appended. Read-only but for one write, a review appended to the run's review
 * log (docs/adr/0026): anything else but GET and HEAD is refused; so is any request naming another host
 * (DNS rebinding) or coming from another site (docs/adr/0010).
 */
export function createViewServer({
  catalog,
  distDir,
  host = '127.0.0.1',
  run,
  becomeRun,
  reviews,
  queue,
  regrade,
}: ViewServerOptions): Server {
  // Created on first use: `trajscope view` may still be building dist/ when the server starts listening,
  // and sirv (non-dev) lists the folder once, when created.
  let app: ReturnType<typeof sirv> | null = null;
  const hosts = allowedHosts(host);
  const streams = new Set<ServerResponse>();
  let mount = run;
  let asking: Promise<RunMount | undefined> | null = null;
  /** The run mount, asking `becomeRun` (one question at a time) while there is none. */
  const currentRun = async (): Promise<RunMount | undefined> => {
    if (mount || !becomeRun) return mount;
    asking ??= becomeRun().finally(() => {
      asking = null;
    });
    const found = await asking;
    if (found && !mount) {
      mount = found;
      for (const res of streams) res.write(`event: run\ndata: ${RUN_MOUNT}\n\n`);
    }
    return mount;
  };
  const feed = new ChangeFeed({
    snapshot: async () => {
      const list = JSON.stringify(await catalog.list());
      await currentRun();
      return list;
    },
    roots: () => catalog.watchRoots(),
    announce: (files) => {
      for (const res of streams) res.write(`event: files\ndata: ${files}\n\n`);
    },
  });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    setSecurityHeaders(res);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const refused = refusal(req, hosts, path);
    if (refused) {
      res.writeHead(refused.status, { 'Content-Type': 'text/plain' }).end(refused.why);
      return;
    }
    if (path === REVIEWS_URL) {
      await serveReviews(req, res, reviews, (digest) => {
        for (const stream of streams) stream.write(`event: reviews\ndata: ${digest}\n\n`);
      });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const run = path === '/' || path === '/api/files' || path.startsWith(RUN_MOUNT) ? await currentRun() : mount;
    if (path === '/api/files') {
      const list: ServedFile[] = await catalog.list();
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(list));
      return;
    }
    if (path === QUEUE_URL) {
      await serveQueue(req, res, queue);
      return;
    }
    if (path === REGRADE_URL) {
      await serveRegrade(req, res, regrade);
      return;
    }
    if (path === '/api/search') {
      await serveSearch(url, res, catalog);
      return;
    }
    if (path === '/api/events') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      res.write(`event: files\ndata: ${JSON.stringify(await catalog.list())}\n\n`);
      if (mount) res.write(`event: run\ndata: ${RUN_MOUNT}\n\n`);
      streams.add(res);
      const leave = feed.listen();
      // The response's close, not the request's: it fires when the client goes away.
      res.on('close', () => {
        streams.delete(res);
        leave();
      });
      return;
    }
    if (run && path.startsWith(RUN_MOUNT)) {
      await serveRun(req, res, run, catalog);
      return;
    }
    if (run && path === '/' && url.search === '') {
      // The bare address opens the run page, as `trajscope view FILE` opens the file.
      res.writeHead(302, { Location: `/?run=${RUN_MOUNT}` }).end();
      return;
    }
    if (path.startsWith('/files/')) {
      // The raw path, not the decoded one: ids are percent-encoded per segment and decoded once, in open.
      const rawId = (req.url ?? '').slice('/files/'.length).split('?')[0] ?? '';
      const file = await catalog.open(rawId);
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
    feed.stop();
    for (const res of streams) res.end();
  });
  return server;
}
