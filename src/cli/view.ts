import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { plural } from '../analysis';
import { Catalog } from './server/catalog';
import { createViewServer } from './server/server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// TRAJSCOPE_DIST lets tests serve a stand-in app without building the real one first.
const DIST = process.env.TRAJSCOPE_DIST ?? fileURLToPath(new URL('../../dist', import.meta.url));
const DEFAULT_PORT = 8777;

/** `trajscope view PATH... [--host H] [--port P] [--open]`: serve the inspector and the named files. */
export async function runView(argv: string[], signal?: AbortSignal): Promise<number> {
  let values: { host?: string; port?: string; open?: boolean };
  let paths: string[];
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { host: { type: 'string' }, port: { type: 'string' }, open: { type: 'boolean' } },
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
  let catalog: Catalog;
  try {
    catalog = await Catalog.open(paths);
  } catch (e) {
    process.stderr.write(`trajscope view: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const server = createViewServer({ catalog, distDir: DIST });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === 'EADDRINUSE' ? `port ${port} is in use on ${host}; choose another with --port` : err.message;
    process.stderr.write(`trajscope view: ${why}\n`);
    return 2;
  }
  if (!existsSync(`${DIST}/index.html`)) {
    process.stderr.write('trajscope view: building the inspector once (vite build)…\n');
    const built = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) {
      process.stderr.write('trajscope view: the build failed; run `npm run build` to see why\n');
      server.close();
      return 2;
    }
  }
  const { port: bound } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}/`;
  const files = await catalog.list();
  process.stdout.write(`trajscope view: serving ${plural(files.length, 'file')} at ${url}\n`);
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    process.stderr.write(`trajscope view: warning: listening on ${host}; anyone who can reach it can read the served files\n`);
  }
  if (values.open) openBrowser(url);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    signal?.addEventListener('abort', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}

function openBrowser(url: string): void {
  const cmd = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(cmd, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => process.stderr.write(`trajscope view: could not open a browser; visit ${url}\n`));
  child.unref();
}
