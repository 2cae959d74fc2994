import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { plural } from '../analysis';
import type { ReadOptions } from '../format';
import { intents } from '../state/url';
import { readOptionsOf } from './readOptions';
import { readIndexOwnManifest, writableRunIndexDir } from './runIndex/build';
import { Catalog } from './server/catalog';
import { QueueFile } from './server/queue';
import { RegradeFile } from './server/regrade';
import { ReviewLog } from './server/reviewLog';
import { RUN_MOUNT, type RunMount } from './server/runMount';
import { createViewServer } from './server/server';
import { isRun, keepIndexed } from './viewRun';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// TRAJSCOPE_DIST lets tests serve a stand-in app without building the real one first.
const DIST = process.env.TRAJSCOPE_DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));
const DEFAULT_PORT = 8777;
const BUILD_SCRIPT = fileURLToPath(new URL('../../scripts/build-app.mjs', import.meta.url));

/**
 * `trajscope view PATH... [--host H] [--port P] [--open] [--files]`: serve the inspector and the named
 * files; a run directory (viewRun.ts) opens its run page, indexed in the background.
 */
export async function runView(argv: string[], signal?: AbortSignal): Promise<number> {
  let values: { host?: string; port?: string; open?: boolean; map?: string; files?: boolean };
  let paths: string[];
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        host: { type: 'string' },
        port: { type: 'string' },
        open: { type: 'boolean' },
        map: { type: 'string' },
        files: { type: 'boolean' },
      },
    });
    values = parsed.values;
    paths = parsed.positionals;
  } catch (e) {
    process.stderr.write(`trajscope view: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  if (paths.length === 0) {
    process.stderr.write('trajscope view: name at least one .jsonl / .jsonl.gz file or a directory of them\n');
    return 2;
  }
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`trajscope view: --port must be a port number, got "${values.port}"\n`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  // The app reads files itself: a mapping travels in the page's URL, as one chosen in the app would.
  let query = '';
  let read: ReadOptions;
  try {
    read = await readOptionsOf({ map: values.map });
    const { mapping } = read;
    if (mapping) query = intents.readWith('', { mapping: JSON.stringify(mapping) }).search;
  } catch (e) {
    process.stderr.write(`trajscope view: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  let catalog: Catalog;
  try {
    // A directory whose files together are traces is served as its converted copy (server/traceSource.ts).
    catalog = await Catalog.open(paths, { say: (line) => process.stderr.write(`trajscope view: ${line}\n`) });
  } catch (e) {
    process.stderr.write(`trajscope view: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  if (read.mapping) {
    // The page reads every served file through the mapping; a converted copy is v1 already.
    const traced = (await catalog.list()).find((f) => f.id.startsWith('t'));
    if (traced) {
      process.stderr.write(`trajscope view: --map does not apply to a directory of traces (${traced.name}): name its files to map them\n`);
      await catalog.close();
      return 2;
    }
  }
  const stopIndexing = new AbortController();
  signal?.addEventListener('abort', () => stopIndexing.abort());
  const runDir = paths.length === 1 && !values.files ? paths[0] : undefined;
  /** Indexes the run directory in the background and mounts it; throws when its index is refused. */
  const mountRun = async (dir: string): Promise<RunMount> => {
    const indexDir = await writableRunIndexDir(dir);
    // A run carrying an index that names files outside it is refused before anything is served or built.
    await readIndexOwnManifest(indexDir);
    const { building } = keepIndexed(dir, indexDir, read, catalog, stopIndexing.signal, (s) =>
      process.stderr.write(`trajscope view: ${s}\n`),
    );
    return { indexDir, root: 0, building };
  };
  let run: RunMount | undefined;
  if (runDir !== undefined && (await isRun(paths, catalog))) {
    try {
      run = await mountRun(runDir);
    } catch (e) {
      process.stderr.write(`trajscope view: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
    // The run page. A mapping is the indexer's business here (read options); the page reads the index.
    query = intents.openRun(RUN_MOUNT).search;
  }
  // A directory that is not a run yet (empty, or one file so far) becomes one when its files come: the
  // server asks again as the list changes and the page moves to the run page (issue 31: decided once).
  let refused = false;
  const becomeRun =
    runDir === undefined || run !== undefined
      ? undefined
      : async (): Promise<RunMount | undefined> => {
          if (refused || !(await isRun(paths, catalog))) return undefined;
          try {
            const mounted = await mountRun(runDir);
            process.stderr.write(`trajscope view: ${runDir} is a run now: its run page is at /?run=${RUN_MOUNT}\n`);
            return mounted;
          } catch (e) {
            refused = true;
            process.stderr.write(`trajscope view: ${e instanceof Error ? e.message : String(e)}; serving its files\n`);
            return undefined;
          }
        };
  // Reviews are kept in the one directory served (docs/adr/0026); named files keep them in the browser.
  const reviewDir = catalog.soleDirectory();
  const reviews = reviewDir === undefined ? undefined : new ReviewLog(reviewDir);
  const queue = reviewDir === undefined ? undefined : new QueueFile(reviewDir);
  const regrade = reviewDir === undefined ? undefined : new RegradeFile(reviewDir);
  const server = createViewServer({ catalog, distDir: DIST, host, run, becomeRun, reviews, queue, regrade });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'EADDRINUSE' ? `port ${port} is in use on ${host}; choose another with --port` : err.message;
    process.stderr.write(`trajscope view: ${why}\n`);
    await catalog.close();
    return 2;
  }
  // `npm install` built the app (prepare); the script rebuilds only a dist/ older than the sources, in one
  // line. A stand-in app (TRAJSCOPE_DIST, tests) is served as it is, built only when absent.
  const standIn = process.env.TRAJSCOPE_DIST !== undefined;
  if (!standIn || !existsSync(`${DIST}/index.html`)) {
    const built = standIn
      ? spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' })
      : spawnSync(process.execPath, [BUILD_SCRIPT, '--quiet'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) {
      process.stderr.write('trajscope view: the build failed; run `npm run build` to see why\n');
      server.close();
      await catalog.close();
      return 2;
    }
  }
  const { port: bound } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}/${query}`;
  const files = await catalog.list();
  process.stdout.write(`trajscope view: serving ${run ? 'the run of ' : ''}${plural(files.length, 'file')} at ${url}\n`);
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    process.stderr.write(`trajscope view: warning: listening on ${host}; anyone who can reach it can read the served files\n`);
  }
  if (values.open) openBrowser(url);
  await new Promise<void>((resolve) => {
    const stop = () => {
      stopIndexing.abort();
      server.close(() => resolve());
      // close() waits for open connections, and the page holds an event stream (and keep-alive sockets)
      // open for as long as it is open: one Ctrl-C did not stop `view` while a tab was open (issue 31).
      server.closeAllConnections();
    };
    signal?.addEventListener('abort', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await catalog.close();
  return 0;
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`trajscope view: could not open a browser; visit ${url}\n`));
  child.unref();
}
