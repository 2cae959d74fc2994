import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createLineParser, type LineResult } from '../../format';
import {
  eventName,
  harborJob,
  type Json,
  openHandsConversation,
  openHandsProbe,
  PROBE_MISSING,
  scratchFolder,
  terminalCall,
  terminalResult,
  write,
} from '../../testing/traceDirectories';
import { Catalog } from './catalog';
import { listenForTest } from './listenForTest';
import { createViewServer } from './server';

const BIN = join(import.meta.dirname, '../../../bin/trajscope.mjs');
const scratch = scratchFolder('trajscope-tracedir-view-');
const { base, directory, convertedByConvert } = scratch;
const dist = join(base, 'dist');
mkdirSync(dist);
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>stand-in app</title>');
const catalogs: Catalog[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const c of children.splice(0)) c.kill('SIGTERM');
  for (const c of catalogs.splice(0)) await c.close();
});
afterAll(scratch.remove);

async function opened(catalog: Catalog): Promise<Catalog> {
  catalogs.push(catalog);
  return catalog;
}

/** A served source's bytes, read as the page reads a file it is sent: every line must be a v1 rollout. */
async function v1Records(catalog: Catalog, id: string): Promise<Json[]> {
  const file = await catalog.open(id);
  if (!file) throw new Error(`${id} is not served`);
  const bytes = await file.handle.readFile();
  await file.handle.close();
  const parser = createLineParser(id, { from: 'auto' });
  const results: LineResult[] = [...parser.push(bytes), ...parser.end()];
  expect(parser.format).toBe('v1');
  expect(results.filter((r) => r.kind === 'error')).toEqual([]);
  return results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : []));
}

describe('view of a trace directory: one converted source', () => {
  it('an OpenHands folder lists exactly one source, whose bytes are v1 with its steps, as convert writes them', async () => {
    const dir = directory(openHandsConversation(), 'conversation-1');
    const said: string[] = [];
    const catalog = await opened(await Catalog.open([dir], { say: (s) => said.push(s) }));
    const list = await catalog.list();
    expect(list.map((f) => [f.id, f.name])).toEqual([['t0', 'conversation-1 (OpenHands SDK conversation).jsonl']]);
    const records = await v1Records(catalog, 't0');
    expect(records.map((r) => r.steps.length)).toEqual([1]);
    expect(records).toEqual(await convertedByConvert(dir));
    expect(list[0]?.size).toBe(Buffer.byteLength(`${JSON.stringify(records[0])}\n`));
    expect(said).toEqual([`${dir}: an OpenHands SDK conversation, served as conversation-1 (OpenHands SDK conversation).jsonl: 1 rollout`]);
    // The raw files are neither listed nor served.
    expect(await catalog.open(`d0/${eventName(0)}`)).toBeNull();
    expect(await catalog.open('d0/base_state.json')).toBeNull();
  });

  it('is made again when the directory changes (a new inode: the page reads a replaced file), and only then', async () => {
    const dir = directory(openHandsConversation());
    const catalog = await opened(await Catalog.open([dir]));
    const [first] = await catalog.list();
    const [same] = await catalog.list();
    expect(same).toEqual(first);
    write(dir, eventName(3), terminalCall(2));
    write(dir, eventName(4), terminalResult(2));
    const [after] = await catalog.list();
    expect(after?.ino).not.toBe(first?.ino);
    expect((await v1Records(catalog, 't0')).map((r) => r.steps.length)).toEqual([2]);
  });

  it('a Harbor job with two trials is one source of two rollouts; a directory of no layout is served file by file as before', async () => {
    const job = directory(harborJob());
    const run = directory({ 'a.jsonl': '{}\n', 'b.jsonl': '{}\n' });
    const catalog = await opened(await Catalog.open([job, run]));
    const list = await catalog.list();
    expect(list.map((f) => f.id)).toEqual(['t0', 'd1/a.jsonl', 'd1/b.jsonl']);
    expect((await v1Records(catalog, 't0')).map((r) => [r.rollout_id, r.reward])).toEqual([
      ['sess-a', 1],
      ['sess-b', 0],
    ]);
  });

  it('a symbolically linked event is not read', async () => {
    const outside = directory({ 'secret.json': terminalCall(99) });
    const dir = directory(openHandsConversation());
    symlinkSync(join(outside, 'secret.json'), join(dir, ...eventName(3).split('/')));
    const catalog = await opened(await Catalog.open([dir]));
    await catalog.list();
    const records = await v1Records(catalog, 't0');
    expect(JSON.stringify(records)).not.toContain('echo 99');
    expect(records[0]?.steps).toHaveLength(1);
  });

  it('close() deletes the copies, which were never inside the named directory', async () => {
    const dir = directory(openHandsConversation());
    const catalog = await Catalog.open([dir]);
    await catalog.list();
    const file = await catalog.open('t0');
    const where = await import('node:fs/promises').then((fs) => fs.readlink(`/proc/self/fd/${file?.handle.fd}`)).catch(() => null);
    await file?.handle.close();
    if (where !== null) {
      expect(where.startsWith(dir)).toBe(false);
      expect(existsSync(where)).toBe(true);
    }
    await catalog.close();
    if (where !== null) expect(existsSync(dirname(where))).toBe(false);
    expect(await catalog.open('t0')).toBeNull();
  });
});

describe('view server of a trace directory', () => {
  it('sends the copy with ranges, and announces a new copy when an event is written', async () => {
    const dir = directory(openHandsConversation());
    const catalog = await opened(await Catalog.open([dir]));
    const server = createViewServer({ catalog, distDir: dist });
    const { base: url, close } = await listenForTest(server);
    try {
      const list = await (await fetch(`${url}/api/files`)).json();
      expect(list.map((f: Json) => f.id)).toEqual(['t0']);
      const whole = await (await fetch(`${url}/files/t0`)).text();
      const part = await fetch(`${url}/files/t0`, { headers: { Range: 'bytes=0-9' } });
      expect([part.status, await part.text()]).toEqual([206, whole.slice(0, 10)]);
      const events = await fetch(`${url}/api/events`);
      const reader = events.body?.getReader();
      const decoder = new TextDecoder();
      let text = '';
      const nextFiles = async (): Promise<Json[]> => {
        for (;;) {
          const m = /event: files\ndata: (.*)\n\n/.exec(text);
          if (m) {
            text = text.slice((m.index ?? 0) + m[0].length);
            return JSON.parse(m[1] ?? '[]');
          }
          const chunk = await reader?.read();
          if (!chunk || chunk.done) throw new Error('the event stream ended');
          text += decoder.decode(chunk.value);
        }
      };
      const [first] = await nextFiles();
      write(dir, eventName(3), terminalCall(2));
      write(dir, eventName(4), terminalResult(2));
      const [second] = await nextFiles();
      expect(second?.ino).not.toBe(first?.ino);
      const grown = (await (await fetch(`${url}/files/t0`)).text()).trimEnd();
      expect(JSON.parse(grown).steps).toHaveLength(2);
      await reader?.cancel();
    } finally {
      close();
    }
  });

  it('trajscope view DIR says what it serves; --map on a directory of traces is exit 2', async () => {
    const dir = directory(openHandsConversation(), 'conversation-2');
    const env = { ...process.env, TRAJSCOPE_DIST: dist };
    const child = spawn(process.execPath, [BIN, 'view', dir, '--port', '0'], { env });
    children.push(child);
    let err = '';
    child.stderr?.on('data', (c) => {
      err += c;
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (c) => {
        out += c;
        const m = /serving 1 file at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    expect(err).toContain(
      `trajscope view: ${dir}: an OpenHands SDK conversation, served as conversation-2 (OpenHands SDK conversation).jsonl: 1 rollout`,
    );
    expect((await (await fetch(`${url}api/files`)).json()).map((f: Json) => f.name)).toEqual([
      'conversation-2 (OpenHands SDK conversation).jsonl',
    ]);
    const map = join(base, 'm.map.json');
    writeFileSync(map, '{"rollout_id": "id"}');
    const mapped = spawn(process.execPath, [BIN, 'view', dir, '--port', '0', '--map', map], { env });
    children.push(mapped);
    let mappedErr = '';
    mapped.stderr?.on('data', (c) => {
      mappedErr += c;
    });
    const code = await new Promise<number | null>((resolve) => mapped.on('exit', resolve));
    expect(code).toBe(2);
    expect(mappedErr).toContain('--map does not apply to a directory of traces (conversation-2 (OpenHands SDK conversation).jsonl)');
  }, 30_000);
});

describe.skipIf(PROBE_MISSING !== null)(`view of a published OpenHands conversation folder, on disk ${PROBE_MISSING ?? ''}`, () => {
  it('one source, one rollout with its 2 steps (terminal, finish)', async () => {
    const fetched = openHandsProbe();
    try {
      const catalog = await opened(await Catalog.open([fetched.dir]));
      expect((await catalog.list()).map((f) => f.id)).toEqual(['t0']);
      const records = await v1Records(catalog, 't0');
      expect(records.map((r) => r.steps.map((s: Json) => s.tool))).toEqual([['terminal', 'finish']]);
    } finally {
      fetched.remove();
    }
  });
});
