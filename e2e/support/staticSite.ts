import { createReadStream, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
};

export interface StaticSite {
  base: string;
  /** Every request: path and its Range header (null without one), and the status answered. */
  log: { path: string; range: string | null; status: number }[];
  close: () => Promise<void>;
}

/**
 * A plain static host over a folder, as a bucket or nginx is: files and nothing else, one byte range per
 * request when `ranges` is on, or (off) every request answered 200 with the whole file, as Python's
 * `http.server` does.
 */
export async function serveStatic(root: string, { ranges }: { ranges: boolean }): Promise<StaticSite> {
  const log: StaticSite['log'] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    const entry = { path, range: (req.headers.range as string | undefined) ?? null, status: 200 };
    log.push(entry);
    if (!file.startsWith(root + sep) && file !== root) {
      entry.status = 403;
      res.writeHead(403).end();
      return;
    }
    let size: number;
    try {
      const s = statSync(file);
      if (s.isDirectory()) file = join(file, 'index.html');
      size = statSync(file).size;
    } catch {
      entry.status = 404;
      res.writeHead(404).end('not found');
      return;
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    const m = ranges && entry.range ? /^bytes=(\d+)-(\d*)$/.exec(entry.range) : null;
    if (m) {
      const start = Number(m[1]);
      const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
      entry.status = 206;
      res.writeHead(206, {
        'Content-Type': type,
        'Content-Range': `bytes ${start}-${end}/${size}`,
        'Content-Length': end - start + 1,
        'Accept-Ranges': 'bytes',
      });
      createReadStream(file, { start, end }).pipe(res);
      return;
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Length': size });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/`,
    log,
    close: () =>
      new Promise<void>((r) => {
        // The page may still hold a keep-alive connection (it polls the manifest): close means now.
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
