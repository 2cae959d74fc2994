import { appendFileSync, mkdirSync, mkdtempSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from './catalog';
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
  const catalog = await Catalog.open([join(data, 'one.jsonl'), runs]);
  const server = createViewServer({ catalog, distDir: dist });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => {
    server.closeAllConnections();
    server.close();
  };
});
afterAll(() => close());

describe('trajscope view server', () => {
  it('lists only the named file and the trajectory files inside the named directory', async () => {
    const files = JSON.parse((await raw('/api/files')).body) as { id: string; name: string; size: number }[];
    expect(files.map((f) => [f.id, f.name])).toEqual([
      ['f0', join(data, 'one.jsonl')],
      ['d1/a.jsonl', 'runs/a.jsonl'],
      ['d1/c.eval', 'runs/c.eval'],
      ['d1/nested/b.jsonl.gz', 'runs/nested/b.jsonl.gz'],
    ]);
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
  });

  it('answers range requests', async () => {
    const part = await raw('/files/f0', { headers: { Range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.body).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/17');
    const tail = await raw('/files/f0', { headers: { Range: 'bytes=10-' } });
    expect(tail.body).toBe('abcdef\n');
    expect((await raw('/files/f0', { headers: { Range: 'bytes=17-' } })).status).toBe(416);
    const head = await raw('/files/f0', { method: 'HEAD' });
    expect(head.headers['content-length']).toBe('17');
    expect(head.headers['accept-ranges']).toBe('bytes');
    // The inode of the bytes sent, so a follower can tell a replaced file from a grown one.
    expect(part.headers['x-trajscope-ino']).toBe(String(statSync(join(data, 'one.jsonl')).ino));
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
