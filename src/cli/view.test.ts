import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '../../bin/trajscope.mjs');
const dir = mkdtempSync(join(tmpdir(), 'trajscope-viewcli-'));
const dist = join(dir, 'dist');
mkdirSync(dist);
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>stand-in app</title>');
writeFileSync(join(dir, 'a.jsonl'), '{}\n');
const env = { ...process.env, TRAJSCOPE_DIST: dist };
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});

async function fails(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    await promisify(execFile)(process.execPath, [BIN, 'view', ...args], { env, timeout: 20_000 });
    return { code: 0, stderr: '' };
  } catch (e) {
    const err = e as { code: number; stderr: string };
    return { code: err.code, stderr: err.stderr };
  }
}

describe('trajscope view (subprocess)', () => {
  it('serves on 127.0.0.1 and prints the URL', async () => {
    const child = spawn(process.execPath, [BIN, 'view', join(dir, 'a.jsonl'), '--port', '0'], { env });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
        const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    expect(await (await fetch(url)).text()).toContain('stand-in app');
    expect(await (await fetch(`${url}files/f0`)).text()).toBe('{}\n');
  });

  it('--map: the printed URL carries the mapping, so the app reads the files with it; a bad mapping is exit 2', async () => {
    writeFileSync(join(dir, 'm.map.json'), '{"rollout_id": "id", "reward": "score"}');
    const child = spawn(process.execPath, [BIN, 'view', join(dir, 'a.jsonl'), '--port', '0', '--map', join(dir, 'm.map.json')], { env });
    children.push(child);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
        const m = /at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    expect(new URL(url).searchParams.get('map')).toBe('{"rollout_id":"id","reward":"score"}');
    writeFileSync(join(dir, 'bad.map.json'), '{"reward": 3}');
    const bad = await fails([join(dir, 'a.jsonl'), '--map', join(dir, 'bad.map.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('reward: ');
  });

  it('says clearly when a path does not exist', async () => {
    const r = await fails([join(dir, 'missing.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no such file or directory: ${join(dir, 'missing.jsonl')}`);
  });

  it('says clearly when the port is in use', async () => {
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as AddressInfo).port;
    const r = await fails([join(dir, 'a.jsonl'), '--port', String(port)]);
    blocker.close();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`port ${port} is in use on 127.0.0.1; choose another with --port`);
  });
});
