import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseFieldMapping, type Rollout } from '../../format';
import { manifestUrlOf, RangeReader, readRun, runDataset } from '../../load';
import { staticFetch } from '../../testing/staticFetch';
import { readJsonlFile } from '../readFile';
import { buildIndex } from './build';

const EXAMPLES = fileURLToPath(new URL('../../../docs/examples/mapping/', import.meta.url));
const BASE = 'http://host.test/';

/** docs/formats.md's two worked examples of a home-grown dump, each made a run of two step files. */
function exampleRun(name: 'agent-runner' | 'chat-eval') {
  const root = mkdtempSync(join(tmpdir(), `trajscope-mapped-${name}-`));
  const lines = readFileSync(join(EXAMPLES, `${name}.jsonl`), 'utf8')
    .trimEnd()
    .split('\n');
  mkdirSync(join(root, 'run'));
  writeFileSync(join(root, 'run', 'step_0000.jsonl'), `${lines.slice(0, 2).join('\n')}\n`);
  writeFileSync(join(root, 'run', 'step_0001.jsonl'), `${lines.slice(2).join('\n')}\n`);
  const mapping = parseFieldMapping(readFileSync(join(EXAMPLES, `${name}.map.json`), 'utf8'));
  return { root, mapping };
}

/** Each file's rollouts as lint reads them with the mapping, by `file:line`. */
async function readWithMapping(root: string, mapping: ReturnType<typeof parseFieldMapping>) {
  const byLine = new Map<string, Rollout>();
  for (const f of ['step_0000.jsonl', 'step_0001.jsonl'])
    await readJsonlFile(
      join(root, 'run', f),
      (r) => {
        if (r.kind === 'rollout') byLine.set(`${f}:${r.value.line}`, r.value.record);
      },
      { from: 'mapped', mapping },
      { name: f },
    );
  return byLine;
}

describe('a run read through a field mapping (index --map)', () => {
  for (const name of ['agent-runner', 'chat-eval'] as const) {
    it(`${name}: the rows are the mapping's rollouts, the manifest records the mapping, and the page reads each rollout by range with it`, async () => {
      const { root, mapping } = exampleRun(name);
      const out = join(root, 'index');
      const built = await buildIndex({ inputs: [join(root, 'run')], outDir: out, jobs: 1, read: { from: 'mapped', mapping } });
      expect(built.unsupported).toEqual([]);
      expect(built.manifest.mapping).toEqual(mapping);
      expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).mapping).toEqual(mapping);
      const want = await readWithMapping(root, mapping);
      expect(built.rows).toBe(want.size);

      const host = staticFetch(root);
      const snap = await readRun(manifestUrlOf('index/', BASE), null, { fetch: host.fetch });
      expect(snap.manifest.mapping).toEqual(mapping);
      const ds = runDataset(snap, null, { reader: new RangeReader({ fetch: host.fetch }), records: new Map() });
      expect(ds.rows.map((r) => `${r.file}:${r.line}`).sort()).toEqual([...want.keys()].sort());
      // A text search reads the run's files with the same mapping.
      expect(ds.scanMapping).toEqual(mapping);
      for (const [i, r] of ds.rows.entries()) {
        const before = host.log.length;
        expect(await ds.rollout(ds.keys[i] ?? '')).toEqual(want.get(`${r.file}:${r.line}`));
        expect(host.log.slice(before).map((e) => e.status)).toEqual([206]);
      }
    });
  }

  it('indexing again without the mapping reads every file again (the rows were made with it), and records none', async () => {
    const { root, mapping } = exampleRun('agent-runner');
    const out = join(root, 'index');
    await buildIndex({ inputs: [join(root, 'run')], outDir: out, jobs: 1, read: { from: 'mapped', mapping } });
    const again = await buildIndex({ inputs: [join(root, 'run')], outDir: out, jobs: 1 });
    expect(again.reused).toBe(0);
    expect(again.manifest.mapping).toBeUndefined();
    expect(again.unsupported.map((u) => u.file)).toEqual(['step_0000.jsonl', 'step_0001.jsonl']);
  });

  it('a mapped row of an index that does not record its mapping is an error saying to index again', async () => {
    const { root, mapping } = exampleRun('agent-runner');
    const out = join(root, 'index');
    await buildIndex({ inputs: [join(root, 'run')], outDir: out, jobs: 1, read: { from: 'mapped', mapping } });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    delete manifest.mapping;
    writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest));
    const host = staticFetch(root);
    const snap = await readRun(manifestUrlOf('index/', BASE), null, { fetch: host.fetch });
    const ds = runDataset(snap, null, { reader: new RangeReader({ fetch: host.fetch }), records: new Map() });
    await expect(ds.rollout(ds.keys[0] ?? '')).rejects.toThrow(
      /^step_0000\.jsonl:1: read by a field mapping .* index the run again with --map$/,
    );
  });
});
