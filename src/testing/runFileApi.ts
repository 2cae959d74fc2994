import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../cli/server/catalog';
import { listenForTest } from '../cli/server/listenForTest';
import { createViewServer, type ViewServerOptions } from '../cli/server/server';

/*
 * The view server over a run directory, for the tests of a read-only route that answers one of the run's
 * own files (`GET /api/queue`, `GET /api/regrade`): run directories in a scratch folder, a stand-in app,
 * and a request to the route as a browser would make it, the answer read whole.
 */

interface Answer {
  status: number;
  type: unknown;
  body: string;
}

/** One request to the route: `GET` unless told, with these headers. */
type Ask = (method?: string, headers?: Record<string, string>) => Promise<Answer>;

export interface RunFileApi {
  /** The scratch folder, for files a test plants outside any run. */
  tmp: string;
  /** A new, empty run directory. */
  runDir(): string;
  /** Serves `dir` (with a rollouts.jsonl written into it) with these options; the route asked of the server. */
  serve(dir: string, options: Partial<ViewServerOptions>): Promise<Ask>;
  /** Stops every server and catalog served since the last call (after each test). */
  closeAll(): void;
  /** Removes the scratch folder (after all tests). */
  remove(): void;
}

export function runFileApi(prefix: string, route: string): RunFileApi {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  const dist = join(tmp, 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
  let closers: (() => void)[] = [];
  return {
    tmp,
    runDir: () => mkdtempSync(join(tmp, 'run-')),
    async serve(dir, options) {
      writeFileSync(join(dir, 'rollouts.jsonl'), '{}\n');
      const catalog = await Catalog.open([dir]);
      const s = await listenForTest(createViewServer({ catalog, distDir: dist, ...options }));
      closers.push(() => {
        s.close();
        void catalog.close();
      });
      return (method = 'GET', headers = {}) =>
        new Promise<Answer>((resolve, reject) => {
          const req = request(`${s.base}${route}`, { method, headers }, (res) => {
            let body = '';
            res.on('data', (c) => {
              body += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
          });
          req.on('error', reject);
          req.end();
        });
    },
    closeAll() {
      for (const c of closers) c();
      closers = [];
    },
    remove: () => rmSync(tmp, { recursive: true, force: true }),
  };
}
