import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from './catalog';
import { listenForTest } from './listenForTest';
import { createViewServer } from './server';

const root = mkdtempSync(join(tmpdir(), 'trajscope-view-'));
const dist = join(root, 'dist');
const data = join(root, 'data');
const runs = join(data, 'runs');
mkdirSync(dist);
mkdirSync(join(runs, 'nested'), { recursive: true });
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
writeFileSync(join(dist, 'gone.js'), 'soon deleted');
writeFileSync(join(root, 'secret.jsonl'), 'outside\n');
writeFileSync(join(data, 'one.jsonl'), '0123456789abcdef\n');
writeFileSync(join(runs, 'a.jsonl'), '{"a":1}\n');
writeFileSync(join(runs, 'nested', 'b.jsonl.gz'), 'gz');
writeFileSync(join(runs, 'notes.txt'), 'not a trajectory');
writeFileSync(join(runs, 'c.eval'), 'PK'); // an Inspect log (a zip) is listed too
symlinkSync(join(root, 'secret.jsonl'), join(runs, 'escape.jsonl'));
writeFileSync(join(runs, '.hidden.jsonl'), 'hidden\n');
mkdirSync(join(runs, '.dir'));
writeFileSync(join(runs, '.dir', 'c.jsonl'), 'hidden\n');
// A named file that a test swaps for a symlink, and a directory whose entry a test races.
writeFileSync(join(data, 'swap.jsonl'), 'mine\n');
const racy = join(data, 'racy');
mkdirSync(racy);
writeFileSync(join(racy, 'x.jsonl'), 'inside\n');
mkdirSync(join(racy, 'sub'));
writeFileSync(join(racy, 'sub', 'y.jsonl'), 'inside\n');
mkdirSync(join(root, 'outdir'));
writeFileSync(join(root, 'outdir', 'y.jsonl'), 'outside\n');

let base = '';
let close = () => {};

/** A raw request: the path goes out exactly as written, with no URL normalisation. */
function raw(path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request(`${base}${path}`, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.path = path;
    req.end();
  });
}

beforeAll(async () => {
  const catalog = await Catalog.open([join(data, 'one.jsonl'), runs, join(data, 'swap.jsonl'), racy]);
  ({ base, close } = await listenForTest(createViewServer({ catalog, distDir: dist })));
});
afterAll(() => close());

describe('trajscope view server', () => {
  it('lists only the named file and the trajectory files inside the named directory', async () => {
    const files = JSON.parse((await raw('/api/files')).body) as { id: string; name: string; size: number }[];
    // Named by what the user named (the base name of an absolute path), never this machine's layout;
    // hidden files and symlinks inside a directory are not listed.
    expect(files.map((f) => [f.id, f.name])).toEqual([
      ['f0', 'one.jsonl'],
      ['d1/a.jsonl', 'runs/a.jsonl'],
      ['d1/c.eval', 'runs/c.eval'],
      ['d1/nested/b.jsonl.gz', 'runs/nested/b.jsonl.gz'],
      ['f2', 'swap.jsonl'],
      ['d3/sub/y.jsonl', 'racy/sub/y.jsonl'],
      ['d3/x.jsonl', 'racy/x.jsonl'],
    ]);
    expect(JSON.stringify(files)).not.toContain(root);
    expect(files[0]?.size).toBe(17);
  });

  it('serves the app and the files', async () => {
    expect((await raw('/')).body).toContain('<title>app</title>');
    expect((await raw('/files/f0')).body).toBe('0123456789abcdef\n');
    expect((await raw('/files/d1/nested/b.jsonl.gz')).body).toBe('gz');
  });

  it.each([
    '/files/../secret.jsonl',
    '/files/%2e%2e/secret.jsonl',
    '/files/d1/../../secret.jsonl',
    '/files/d1/%2e%2e/%2e%2e/secret.jsonl',
    '/files/d1/%2E%2E%2F%2E%2E%2Fsecret.jsonl',
    '/files/d1/..%2f..%2fsecret.jsonl',
    `/files/d1/${encodeURIComponent(join(root, 'secret.jsonl'))}`,
    '/files/d1//etc/passwd',
    '/files/d1/escape.jsonl',
    '/files/d1/.hidden.jsonl',
    '/files/d1/%2ehidden.jsonl',
    '/files/d1/.dir/c.jsonl',
    '/files/d1/%2Edir/c.jsonl',
    '/files/d1/notes.txt',
    '/files/d1',
    '/files/f0/x',
    '/files/f9',
    '/files/d1/%zz.jsonl',
    '/../secret.jsonl',
    '/%2e%2e/secret.jsonl',
    '/..%2f..%2fetc%2fpasswd',
    '/etc/passwd',
  ])('answers 404 to %s', async (path) => {
    const r = await raw(path);
    expect(r.status).toBe(404);
    expect(r.body).not.toContain('outside');
    expect(r.body).not.toContain('hidden');
  });

  it('answers range requests', async () => {
    const part = await raw('/files/f0', { headers: { Range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.body).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/17');
    const tail = await raw('/files/f0', { headers: { Range: 'bytes=10-' } });
    expect(tail.body).toBe('abcdef\n');
    expect((await raw('/files/f0', { headers: { Range: 'bytes=17-' } })).status).toBe(416);
    // RFC 9110 §14.1.2: a suffix longer than the file selects the whole file.
    const suffix = await raw('/files/f0', { headers: { Range: 'bytes=-100' } });
    expect(suffix.status).toBe(206);
    expect(suffix.body).toBe('0123456789abcdef\n');
    expect(suffix.headers['content-range']).toBe('bytes 0-16/17');
    expect((await raw('/files/f0', { headers: { Range: 'bytes=-3' } })).body).toBe('ef\n');
    const head = await raw('/files/f0', { method: 'HEAD' });
    expect(head.headers['content-length']).toBe('17');
    expect(head.headers['accept-ranges']).toBe('bytes');
    // The inode of the bytes sent, so a follower can tell a replaced file from a grown one.
    expect(part.headers['x-trajscope-ino']).toBe(String(statSync(join(data, 'one.jsonl')).ino));
  });

  it('refuses a Host it was not bound to (DNS rebinding) with 400, and cross-site requests with 403', async () => {
    for (const host of ['evil.example', 'evil.example:80', '127.0.0.1.evil.example', 'localhost.evil']) {
      for (const path of ['/', '/api/files', '/api/events', '/files/f0']) {
        const r = await raw(path, { headers: { Host: host } });
        expect([host, path, r.status]).toEqual([host, path, 400]);
        expect(r.body).not.toContain('0123456789');
      }
    }
    const port = new URL(base).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect((await raw('/files/f0', { headers: { Host: host } })).status).toBe(200);
    }
    const site = (v: string, extra: Record<string, string> = {}) => raw('/files/f0', { headers: { 'Sec-Fetch-Site': v, ...extra } });
    expect((await site('cross-site')).status).toBe(403);
    expect((await site('same-site')).status).toBe(403);
    expect((await site('same-origin')).status).toBe(200);
    expect((await site('none')).status).toBe(200);
    expect((await raw('/api/files', { headers: { Origin: 'http://evil.example' } })).status).toBe(403);
    expect((await raw('/api/files', { headers: { Origin: `http://localhost:${port + 1}` } })).status).toBe(403);
    expect((await raw('/api/files', { headers: { Origin: 'null' } })).status).toBe(403);
    expect((await raw('/api/files', { headers: { Origin: base } })).status).toBe(200);
    // A link from another site may open the app page; it then reads everything same-origin.
    const nav = { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' };
    expect((await raw('/', { headers: nav })).status).toBe(200);
    expect((await raw('/files/f0', { headers: nav })).status).toBe(403);
    expect((await raw('/api/files', { headers: nav })).status).toBe(403);
  });

  it('sends a strict CSP, no framing and nosniff on every response', async () => {
    const responses = await Promise.all([
      raw('/'),
      raw('/api/files'),
      raw('/files/f0'),
      raw('/files/nope'),
      raw('/missing.js'),
      raw('/files/f0', { method: 'POST' }),
      raw('/', { headers: { Host: 'evil.example' } }),
    ]);
    for (const r of responses) {
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-frame-options']).toBe('DENY');
      const csp = String(r.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
    }
  });

  it('never serves the target of a named file replaced by a symlink', async () => {
    expect((await raw('/files/f2')).body).toBe('mine\n');
    renameSync(join(data, 'swap.jsonl'), join(data, 'swap.old'));
    symlinkSync(join(root, 'secret.jsonl'), join(data, 'swap.jsonl'));
    try {
      const r = await raw('/files/f2');
      expect(r.status).toBe(404);
      expect(r.body).not.toContain('outside');
      const list = JSON.parse((await raw('/api/files')).body) as { id: string }[];
      expect(list.map((f) => f.id)).not.toContain('f2');
    } finally {
      unlinkSync(join(data, 'swap.jsonl'));
      renameSync(join(data, 'swap.old'), join(data, 'swap.jsonl'));
    }
  });

  it('never leaks an outside file while an entry (or its directory) flips between a real file and a symlink', async () => {
    const entry = join(racy, 'x.jsonl');
    // Another process flips the entry in a tight loop while requests are in flight (as an attacker would).
    const flip = `const fs=require('fs');const e=${JSON.stringify(entry)};const t=${JSON.stringify(join(root, 'secret.jsonl'))};
      const d=${JSON.stringify(join(racy, 'sub'))};const o=${JSON.stringify(join(root, 'outdir'))};const k=d+'.keep';
      const end=Date.now()+20000;while(Date.now()<end){try{fs.rmSync(e,{force:true});fs.symlinkSync(t,e);fs.renameSync(d,k);fs.symlinkSync(o,d);
      fs.rmSync(e,{force:true});fs.writeFileSync(e,'inside\\n');fs.rmSync(d);fs.renameSync(k,d)}catch{}}`;
    const flipper = spawn(process.execPath, ['-e', flip], { stdio: 'ignore' });
    const bodies: string[] = [];
    for (let i = 0; i < 40; i++) {
      const batch = await Promise.all(Array.from({ length: 25 }, (_, j) => raw(j % 2 ? '/files/d3/x.jsonl' : '/files/d3/sub/y.jsonl')));
      for (const r of batch) bodies.push(r.body);
    }
    flipper.kill('SIGKILL');
    await new Promise((r) => flipper.once('exit', r));
    rmSync(entry, { force: true });
    writeFileSync(entry, 'inside\n');
    // The flipper can die between any two of its steps: 'sub' may then be missing or a symlink, and the
    // real directory is 'sub.keep' whenever that exists.
    if (existsSync(join(racy, 'sub.keep'))) {
      rmSync(join(racy, 'sub'), { force: true });
      renameSync(join(racy, 'sub.keep'), join(racy, 'sub'));
    }
    expect(statSync(join(racy, 'sub')).isDirectory()).toBe(true);
    expect(bodies.filter((b) => b.includes('outside'))).toEqual([]);
    expect(bodies.some((b) => b === 'inside\n')).toBe(true);
  });

  it('is read-only', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) expect((await raw('/files/f0', { method })).status).toBe(405);
  });

  it('announces a file that grows, and a new file in a directory, over server-sent events', async () => {
    const seen: { id: string; size: number }[][] = [];
    const done = new Promise<void>((resolve, reject) => {
      const req = request(`${base}/api/events`, (res) => {
        let buf = '';
        res.on('data', (c) => {
          buf += c;
          for (let i = buf.indexOf('\n\n'); i !== -1; i = buf.indexOf('\n\n')) {
            const event = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const dataLine = event.split('\n').find((l) => l.startsWith('data: '));
            if (dataLine) seen.push(JSON.parse(dataLine.slice(6)));
            if (seen.length === 1) {
              appendFileSync(join(data, 'one.jsonl'), 'more\n');
              writeFileSync(join(runs, 'c.jsonl'), '{}\n');
            }
            const last = seen[seen.length - 1] ?? [];
            if (last.some((f) => f.id === 'f0' && f.size === 22) && last.some((f) => f.id === 'd1/c.jsonl')) {
              req.destroy();
              resolve();
            }
          }
        });
      });
      req.on('error', (e) => (e.message.includes('aborted') ? undefined : reject(e)));
      req.end();
    });
    const started = Date.now();
    await done;
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps serving when a file of the app vanishes under it (dist rebuilt while it runs)', async () => {
    expect((await raw('/gone.js')).body).toBe('soon deleted');
    unlinkSync(join(dist, 'gone.js'));
    // The listing sirv cached still names it: that one response fails, the server does not.
    await raw('/gone.js').then(
      (r) => expect(r.body).not.toBe('soon deleted'),
      (e: Error) => expect(e.message).toMatch(/socket hang up|ECONNRESET/),
    );
    expect((await raw('/files/f0')).status).toBe(200);
  });
});

describe('the change feed of trajscope view', () => {
  it('never lists twice at once, even when a listing is slow, and stops listing when the last page leaves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-feed-'));
    writeFileSync(join(dir, 'a.jsonl'), '{}\n');
    const catalog = await Catalog.open([dir]);
    const list = catalog.list.bind(catalog);
    let running = 0;
    let overlap = 0;
    let calls = 0;
    catalog.list = async () => {
      calls++;
      running++;
      overlap = Math.max(overlap, running);
      await new Promise((r) => setTimeout(r, 700));
      running--;
      return list();
    };
    const server = createViewServer({ catalog, distDir: dist });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events`;
    const req = request(url);
    req.on('error', () => {});
    req.end();
    for (let i = 0; i < 12; i++) {
      appendFileSync(join(dir, 'a.jsonl'), '{}\n');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(overlap).toBe(1);
    req.destroy();
    await new Promise((r) => setTimeout(r, 900));
    const after = calls;
    await new Promise((r) => setTimeout(r, 2500));
    expect(calls).toBe(after);
    server.closeAllConnections();
    server.close();
  }, 15_000);
});
