import { describe, expect, it } from 'vitest';
import { indexPathProblem, parseRunManifest } from './manifest';

const good = {
  version: 1,
  source_base: '..',
  files: [
    {
      file: 'step_0001.jsonl.gz',
      size: 900,
      mtime_ms: 1_700_000_000_000,
      gzip: true,
      shards: [{ path: 'shards/step_0001.jsonl.gz.0.parquet', rows: 8, from_line: 1, to_line: 9, from_byte: 0, to_byte: 4000 }],
      parse_errors: [{ line: 5, code: 'E_PARSE', message: 'not JSON' }],
    },
  ],
};

describe('the run manifest', () => {
  it('parses what the index writes', () => {
    expect(parseRunManifest(JSON.stringify(good))).toEqual({ manifest: good });
  });

  it('names the field that is wrong, and says when the text is no JSON', () => {
    const bad = structuredClone(good);
    (bad.files[0]?.shards[0] as { rows: unknown }).rows = -1;
    expect(parseRunManifest(JSON.stringify(bad))).toEqual({
      error: expect.stringMatching(/^manifest.json: files.0.shards.0.rows \(file "step_0001.jsonl.gz"\): /),
    });
    expect(parseRunManifest(JSON.stringify({ ...good, version: 2 }))).toEqual({ error: expect.stringMatching(/version/) });
    expect(parseRunManifest('<html>')).toEqual({ error: expect.stringMatching(/not JSON/) });
  });

  it('refuses a shard path that could name a file outside the index folder (issue 28)', () => {
    const withPath = (path: string) => {
      const m = structuredClone(good);
      if (m.files[0]?.shards[0]) m.files[0].shards[0].path = path;
      return parseRunManifest(JSON.stringify(m));
    };
    const cases: [string, RegExp][] = [
      ['../../../victims/precious.txt', /leaves the index folder/],
      ['shards/../../x.parquet', /leaves the index folder/],
      ['shards//x.parquet', /leaves the index folder/],
      ['./shards/x.parquet', /leaves the index folder/],
      ['/etc/passwd.parquet', /is absolute/],
      ['C:/x.parquet', /is absolute/],
      ['shards\\..\\x.parquet', /backslash or NUL/],
      ['shards/x\u0000.parquet', /backslash or NUL/],
      ['shards/x.txt', /is not a \.parquet file/],
      ['', /leaves the index folder/],
    ];
    for (const [path, why] of cases) {
      expect(withPath(path), path).toEqual({
        error: expect.stringMatching(/^manifest.json: files.0.shards.0.path \(file "step_0001.jsonl.gz"\): /),
      });
      expect(indexPathProblem(path), path).toMatch(why);
    }
    for (const ok of ['shards/a.jsonl/L000000001-000000009.x.parquet', 'parts/task-0/shards/s.parquet', 'shards/..x/y.parquet']) {
      expect(indexPathProblem(ok), ok).toBeNull();
      expect(withPath(ok)).toEqual({ manifest: expect.anything() });
    }
  });
});
