import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFieldMapping } from '../format';
import { RangeReader, readRun, runDataset } from '../load';

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

/** The URL `trajscope view` prints once it serves. */
function servedUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}`)));
  });
}

describe('trajscope view (subprocess)', () => {
  it('serves on 127.0.0.1 and prints the URL', async () => {
    const child = spawn(process.execPath, [BIN, 'view', join(dir, 'a.jsonl'), '--port', '0'], { env });
    children.push(child);
    const url = await servedUrl(child);
    expect(await (await fetch(url)).text()).toContain('stand-in app');
    expect(await (await fetch(`${url}files/f0`)).text()).toBe('{}\n');
  });

  it('stops on one Ctrl-C while a page holds its event stream open (issue 31: it took two)', async () => {
    const child = spawn(process.execPath, [BIN, 'view', join(dir, 'a.jsonl'), '--port', '0'], { env });
    children.push(child);
    const url = await servedUrl(child);
    const stream = await fetch(`${url}api/events`);
    const reader = stream.body?.getReader();
    await reader?.read();
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 10_000))]);
    expect(code).toBe(0);
    await reader?.cancel().catch(() => {});
  });

  it('--map: the printed URL carries the mapping, so the app reads the files with it; a bad mapping is exit 2', async () => {
    writeFileSync(join(dir, 'm.map.json'), '{"rollout_id": "id", "reward": "score"}');
    const child = spawn(process.execPath, [BIN, 'view', join(dir, 'a.jsonl'), '--port', '0', '--map', join(dir, 'm.map.json')], { env });
    children.push(child);
    const url = await servedUrl(child);
    expect(new URL(url).searchParams.get('map')).toBe('{"rollout_id":"id","reward":"score"}');
    writeFileSync(join(dir, 'bad.map.json'), '{"reward": 3}');
    const bad = await fails([join(dir, 'a.jsonl'), '--map', join(dir, 'bad.map.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('reward: ');
  });

  it('--map on a run directory: the run is indexed through the mapping, and the page reads its rollouts by range with it', async () => {
    const examples = join(import.meta.dirname, '../../docs/examples/mapping');
    const lines = readFileSync(join(examples, 'agent-runner.jsonl'), 'utf8').trimEnd().split('\n');
    const run = join(dir, 'mapped-run');
    mkdirSync(run);
    writeFileSync(join(run, 'step_0000.jsonl'), `${lines.slice(0, 2).join('\n')}\n`);
    writeFileSync(join(run, 'step_0001.jsonl'), `${lines.slice(2).join('\n')}\n`);
    const map = join(examples, 'agent-runner.map.json');
    const child = spawn(process.execPath, [BIN, 'view', run, '--port', '0', '--map', map], { env });
    children.push(child);
    const url = await servedUrl(child);
    // The page opens the run; the mapping travels in its manifest, not in the URL.
    expect(new URL(url).searchParams.get('map')).toBeNull();
    const manifestUrl = new URL('run/manifest.json', url).href;
    let snap: Awaited<ReturnType<typeof readRun>> | null = null;
    for (let tries = 0; snap === null; tries++) {
      snap = await readRun(manifestUrl, null).catch((e: unknown) => {
        if (tries > 100) throw e;
        return new Promise<null>((r) => setTimeout(() => r(null), 200));
      });
    }
    expect(snap.manifest.mapping).toEqual(parseFieldMapping(readFileSync(map, 'utf8')));
    const ds = runDataset(snap, null, { reader: new RangeReader(), records: new Map() });
    expect(ds.rows.map((r) => r.rollout_id).sort()).toEqual(['ep-0007', 'ep-0008', 'ep-0009']);
    const i = ds.rows.findIndex((r) => r.rollout_id === 'ep-0008');
    const record = await ds.rollout(ds.keys[i] ?? '');
    expect(record).toMatchObject({ rollout_id: 'ep-0008', source_format: 'mapped', termination: 'budget_exhausted' });
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
