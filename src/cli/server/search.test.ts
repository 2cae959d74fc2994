import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRollout, buildStep, toJsonl } from '../../testing/builders';
import { Catalog } from './catalog';
import { listenForTest } from './listenForTest';
import { createViewServer } from './server';

const dir = mkdtempSync(join(tmpdir(), 'trajscope-search-'));
const lines = toJsonl([
  buildRollout({ rollout_id: 'a', steps: [buildStep({ tool: 'run_shell', observation: { status: 'ok', text: 'Traceback: boom' } })] }),
  buildRollout({ rollout_id: 'b', steps: [buildStep({ observation: { text: 'fine' } })] }),
]);
writeFileSync(join(dir, 'plain.jsonl'), lines);
writeFileSync(join(dir, 'packed.jsonl.gz'), gzipSync(`{broken\n${lines}`));

let base = '';
let close = () => {};
beforeAll(async () => {
  const catalog = await Catalog.open([join(dir, 'plain.jsonl'), join(dir, 'packed.jsonl.gz')]);
  ({ base, close } = await listenForTest(createViewServer({ catalog, distDir: dir })));
});
afterAll(() => close());

const search = async (query: string) => {
  const res = await fetch(`${base}/api/search?${query}`);
  const body = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    objects: body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  };
};

describe('GET /api/search', () => {
  it('streams the matches of every served file as NDJSON, gzip read by its bytes', async () => {
    const { status, type, objects } = await search('q=traceback');
    expect(status).toBe(200);
    expect(type).toBe('application/x-ndjson');
    const matches = objects.filter((o) => o.match).map((o) => [o.match.file, o.match.line, o.match.count]);
    expect(matches).toEqual([
      ['plain.jsonl', 1, 1],
      ['packed.jsonl.gz', 2, 1],
    ]);
    expect(objects.at(-1)).toEqual({ done: { records: 4 } });
  });

  it('scans only the files asked for, and runs only content clauses', async () => {
    const { objects } = await search(`q=${encodeURIComponent('tool:run_shell reward>5')}&file=f0`);
    expect(objects.filter((o) => o.match).map((o) => [o.match.file, o.match.hits[0].step])).toEqual([['plain.jsonl', 1]]);
  });

  it('a bad query is a 400 naming the term', async () => {
    const { status, objects } = await search('q=reward>x');
    expect(status).toBe(400);
    expect(objects[0].error).toContain('"x" is not a number');
  });
});
