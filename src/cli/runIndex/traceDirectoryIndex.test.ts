import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseRunManifest } from '../../format/runIndex/manifest';
import { manifestUrlOf, RangeReader, readRun, runDataset } from '../../load';
import { staticFetch } from '../../testing/staticFetch';
import {
  captured,
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
import { buildIndex } from './build';
import { runIndexCommand } from './command';
import { readIndexRows } from './shardRows';

const scratch = scratchFolder('trajscope-tracedir-index-');
const { directory, convertedByConvert } = scratch;
afterAll(scratch.remove);
afterEach(() => vi.restoreAllMocks());

/** Each row's span, read from the file its row names under the manifest's source_base, parsed. */
function spans(outDir: string, rows: { file: string; offset: number; length: number }[], sourceBase: string): Json[] {
  return rows.map((r) => {
    const bytes = readFileSync(join(outDir, sourceBase, r.file));
    return JSON.parse(bytes.subarray(r.offset, r.offset + r.length).toString('utf8'));
  });
}

describe('trajscope index of a trace directory', () => {
  it('an OpenHands conversation: its converted copy is indexed, one row, whose span reads back to what convert writes', async () => {
    const dir = directory(openHandsConversation(), 'conversation-1');
    const out = scratch.fresh('idx');
    const outcome = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect(outcome.rows).toBe(1);
    expect(outcome.unsupported).toEqual([]);
    const { manifest } = outcome;
    expect(manifest.source_base).toBe('');
    expect(
      manifest.files.map((f) => [f.file, f.format, f.converted_from?.dir, f.converted_from?.layouts, f.converted_from?.failed]),
    ).toEqual([['traces/conversation-1.jsonl', 'v1', '../conversation-1', ['openhands-conversation'], 0]]);
    // The manifest as written passes its own schema, converted_from and all.
    expect(parseRunManifest(readFileSync(join(out, 'manifest.json'), 'utf8'))).toEqual({ manifest });
    const rows = await readIndexRows(out, manifest);
    const records = spans(out, rows, manifest.source_base);
    expect(records).toEqual(await convertedByConvert(dir));
    expect(records[0]?.steps.map((s: Json) => s.tool)).toEqual(['terminal']);
    expect(rows.map((r) => [r.file, r.line, r.steps])).toEqual([['traces/conversation-1.jsonl', 1, 1]]);
  });

  it('re-indexing an unchanged folder reuses the copy and its rows; an event added makes a new copy', async () => {
    const dir = directory(openHandsConversation());
    const out = scratch.fresh('idx');
    const first = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const copy = join(out, first.manifest.files[0]?.file ?? '');
    const before = statSync(copy);
    const again = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect([again.reused, again.indexed, again.rows]).toEqual([1, 0, 1]);
    expect(statSync(copy).mtimeMs).toBe(before.mtimeMs);
    expect(again.manifest).toEqual(first.manifest);
    // The agent goes on: a second command and its result.
    write(dir, eventName(3), terminalCall(2));
    write(dir, eventName(4), terminalResult(2));
    const grown = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect([grown.reused, grown.indexed, grown.resumed, grown.rows]).toEqual([0, 1, 0, 1]);
    expect(grown.manifest.files[0]?.converted_from?.digest).not.toBe(first.manifest.files[0]?.converted_from?.digest);
    const rows = await readIndexRows(out, grown.manifest);
    expect(rows.map((r) => r.steps)).toEqual([2]);
    expect(spans(out, rows, '')).toEqual(await convertedByConvert(dir));
    // The older copy's shards are gone: only what the manifest names is left.
    const named = grown.manifest.files.flatMap((f) => f.shards.map((s) => s.path));
    const first0 = first.manifest.files[0]?.shards[0]?.path ?? '';
    expect(named).not.toContain(first0);
    expect(() => statSync(join(out, first0))).toThrow();
  });

  it('a copy or a traces folder planted as a link to elsewhere is refused: nothing outside is written or deleted', async () => {
    const dir = directory(openHandsConversation(), 'conversation-planted');
    const out = scratch.fresh('idx');
    await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const outside = mkdtempSync(join(tmpdir(), 'trajscope-outside-'));
    const victim = join(outside, 'victim.jsonl');
    writeFileSync(victim, 'keep me\n');
    // The copy itself a link to a file outside, then the directory changes (a new copy is due).
    rmSync(join(out, 'traces/conversation-planted.jsonl'));
    symlinkSync(victim, join(out, 'traces/conversation-planted.jsonl'));
    write(dir, eventName(9), terminalCall(9));
    await expect(buildIndex({ inputs: [dir], outDir: out, jobs: 1 })).rejects.toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    // The traces folder a link to the outside folder: refused the same, the victim neither written nor deleted.
    rmSync(join(out, 'traces'), { recursive: true, force: true });
    symlinkSync(outside, join(out, 'traces'));
    await expect(buildIndex({ inputs: [dir], outDir: out, jobs: 1 })).rejects.toThrow(/symbolic link/);
    expect(readFileSync(victim, 'utf8')).toBe('keep me\n');
    expect(readdirSync(outside)).toEqual(['victim.jsonl']);
  });

  it('a Harbor job with two trials: two rows, each span its trial', async () => {
    const dir = directory(harborJob());
    const out = scratch.fresh('idx');
    const { manifest, rows } = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    expect(rows).toBe(2);
    const indexed = await readIndexRows(out, manifest);
    expect(indexed.map((r) => [r.rollout_id, r.reward, r.line])).toEqual([
      ['sess-a', 1, 1],
      ['sess-b', 0, 2],
    ]);
    expect(spans(out, indexed, manifest.source_base)).toEqual(await convertedByConvert(dir));
  });

  it('the page reads a row of it by range: the files resolve under the manifest’s source_base', async () => {
    const site = mkdtempSync(join(tmpdir(), 'trajscope-tracedir-site-'));
    try {
      const dir = join(site, 'job');
      for (const [path, value] of Object.entries(harborJob())) write(dir, path, value);
      await buildIndex({ inputs: [dir], outDir: join(site, 'index'), jobs: 1 });
      const host = staticFetch(site);
      const snap = await readRun(manifestUrlOf('index/', 'http://host.test/'), null, { fetch: host.fetch });
      const ds = runDataset(snap, null, { reader: new RangeReader({ fetch: host.fetch }), records: new Map() });
      const b = ds.rows.findIndex((r) => r.rollout_id === 'sess-b');
      const record = await ds.rollout(ds.keys[b] ?? '');
      expect(record).toMatchObject({ rollout_id: 'sess-b', reward: 0, source_format: 'harbor-atif' });
      expect(host.log.some((l) => l.path === '/index/traces/job.jsonl' && l.status === 206)).toBe(true);
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });

  it('a symbolically linked event is not read: the conversation stops before it, as at a gap', async () => {
    const outside = directory({ 'secret.json': terminalCall(99) });
    const dir = directory(openHandsConversation());
    mkdirSync(join(dir, 'events'), { recursive: true });
    symlinkSync(join(outside, 'secret.json'), join(dir, ...eventName(3).split('/')));
    const out = scratch.fresh('idx');
    const { manifest } = await buildIndex({ inputs: [dir], outDir: out, jobs: 1 });
    const copy = readFileSync(join(out, manifest.files[0]?.file ?? ''), 'utf8');
    expect(copy).not.toContain('echo 99');
    expect(JSON.parse(copy).steps).toHaveLength(1);
  });

  it('index DIR of no layout and no trajectory file: one line saying what it holds, exit 2', async () => {
    const dir = directory({ 'notes.txt': 'x' });
    const r = await captured(() => runIndexCommand([dir, '--out', scratch.fresh('idx')]));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `trajscope index: ${dir}: a directory of 1 file (notes.txt): none is a trajectory file or a known trace layout (known layouts: ` +
        'OpenHands SDK conversation (base_state.json + events/event-NNNNN-<id>.json), Harbor job (<trial>/agent/trajectory.json + ' +
        '<trial>/result.json), tau2-bench results directory (results.json + simulations/<id>.json))\n',
    );
  });

  it('the command: a trace directory indexes with exit 0; named with run files it is refused; --from of another format is exit 2', async () => {
    const dir = directory(harborJob());
    const ok = await captured(() => runIndexCommand([dir, '--out', scratch.fresh('idx')]));
    expect([ok.code, ok.stderr]).toEqual([0, expect.stringMatching(/^trajscope index: 2 rollouts from 1 file \(1 indexed/)]);
    const run = directory({ 'a.jsonl': '{}\n' });
    const mixed = await captured(() => runIndexCommand([dir, run, '--out', scratch.fresh('idx')]));
    expect([mixed.code, mixed.stderr]).toEqual([
      2,
      `trajscope index: ${dir} is a Harbor job, converted into the index: index it apart from ${run} (its rollouts are read from the index, theirs from the run)\n`,
    ]);
    const other = await captured(() => runIndexCommand([dir, '--from', 'tau2-bench', '--out', scratch.fresh('idx')]));
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`trajscope index: ${dir}: a Harbor job, read as harbor-atif: --from tau2-bench does not apply to it`);
  });

  it('an event file that is not JSON is kept in converted_from.errors, named within the directory, and said', async () => {
    const dir = directory({ ...openHandsConversation(), [eventName(3)]: '{not json' });
    const out = scratch.fresh('idx');
    const r = await captured(() => runIndexCommand([dir, '--out', out]));
    expect(r.code).toBe(0);
    const { manifest } = parseRunManifest(readFileSync(join(out, 'manifest.json'), 'utf8')) as { manifest: Json };
    expect(manifest.files[0].converted_from.failed).toBe(1);
    // Named as the copy names its rollouts: the directory's name, then the path within it.
    const named = `${basename(dir)}/${eventName(3)}`;
    expect(manifest.files[0].converted_from.errors).toEqual([{ file: named, line: 1, code: 'E_PARSE', message: expect.any(String) }]);
    expect(r.stderr).toContain(`1 file failed to convert, first ${named}: E_PARSE`);
  });

  it('a manifest whose converted copy leaves the index folder is refused by its schema, naming the entry', () => {
    const entry = { file: '../../etc/passwd', size: 1, mtime_ms: 1, gzip: false, shards: [], parse_errors: [] };
    const converted_from = { dir: '..', layouts: [], digest: 'x', errors: [], failed: 0 };
    const parsed = parseRunManifest(JSON.stringify({ version: 1, source_base: '', files: [{ ...entry, converted_from }] }));
    expect(parsed).toEqual({
      error: expect.stringMatching(/^manifest\.json: files\.0\.file \(file "\.\.\/\.\.\/etc\/passwd"\): .*leaves the index folder/),
    });
  });
});

describe.skipIf(PROBE_MISSING !== null)(`index of a published OpenHands conversation folder, on disk ${PROBE_MISSING ?? ''}`, () => {
  it('one row with its 2 steps, its span equal to what convert writes', async () => {
    const fetched = openHandsProbe();
    try {
      const out = scratch.fresh('idx');
      const { manifest } = await buildIndex({ inputs: [fetched.dir], outDir: out, jobs: 1 });
      const rows = await readIndexRows(out, manifest);
      expect(rows.map((r) => [r.steps, r.termination])).toEqual([[2, 'finished']]);
      expect(spans(out, rows, manifest.source_base)).toEqual(await convertedByConvert(fetched.dir));
    } finally {
      fetched.remove();
    }
  });
});
