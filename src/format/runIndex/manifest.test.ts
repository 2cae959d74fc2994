import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edited, paths } from '../../testing/edits';
import { indexPathProblem, manifestSchemaForTests, parseRunManifest } from './manifest';
import { plainManifest } from './plainManifest';

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
    const manifestWith = (path: string) => {
      const m = structuredClone(good);
      if (m.files[0]?.shards[0]) m.files[0].shards[0].path = path;
      return m;
    };
    const withPath = (path: string) => parseRunManifest(JSON.stringify(manifestWith(path)));
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
      // The fast path never takes it: the manifest is otherwise plain, so the path is what it refuses.
      expect(plainManifest(manifestWith(path)), path).toBeNull();
    }
    for (const ok of ['shards/a.jsonl/L000000001-000000009.x.parquet', 'parts/task-0/shards/s.parquet', 'shards/..x/y.parquet']) {
      expect(indexPathProblem(ok), ok).toBeNull();
      expect(withPath(ok)).toEqual({ manifest: expect.anything() });
      expect(plainManifest(manifestWith(ok)), ok).not.toBeNull();
    }
  });
});

describe("the manifest's fast path (plainManifest)", () => {
  /** Every field the fast path reads present, in two files, so edits reach all of them. */
  const rich = {
    version: 1,
    source_base: '../run',
    options: '{"format":"auto"}',
    files: [
      {
        ...good.files[0],
        lines: 9,
        format: 'v1',
        complete_lines: 9,
        complete_bytes: 4000,
        check: 'abc',
        policy_versions: ['v-1', 'v-2'],
        unstepped: 0,
      },
      {
        file: 'b.jsonl',
        size: 10,
        mtime_ms: 1.5,
        gzip: false,
        shards: [{ path: 'shards/b.parquet', rows: 2, from_line: 1, to_line: 2, from_byte: 0, to_byte: 10, bytes: 300 }],
        parse_errors: [],
        format: null,
      },
    ],
  };

  it('takes what the index writes as it is, and it is what zod returns', () => {
    const demo = JSON.parse(readFileSync(new URL('../../../public/demo/run-index/manifest.json', import.meta.url), 'utf8'));
    for (const m of [good, rich, demo]) {
      expect(plainManifest(m)).toBe(m);
      expect(manifestSchemaForTests().parse(m)).toEqual(m);
    }
  });

  it('leaves to zod what it does not know for certain: a mapping, a converted directory, a key zod would drop', () => {
    const withMapping = { ...good, mapping: { version: 1 } };
    const converted = {
      ...good,
      files: [{ ...good.files[0], converted_from: { dir: 'd', layouts: [], digest: 'x', errors: [], failed: 0 } }],
    };
    const extra = { ...good, comment: 'hi' };
    for (const m of [withMapping, converted, extra]) expect(plainManifest(m)).toBeNull();
    // zod still reads them: the extra key dropped, a converted entry whose file is not its own copy refused.
    expect(parseRunManifest(JSON.stringify(extra))).toEqual({ manifest: good });
    expect(parseRunManifest(JSON.stringify(converted))).toEqual({ error: expect.stringMatching(/files.0.file/) });
  });

  it('is never looser than the schema: whatever it takes, zod takes and returns unchanged', () => {
    // Each edit sets a value anywhere in the manifest, removes one (undefined), or adds a key to an object
    // (not to an array: JSON has no array with a named key).
    const isObject = (p: (string | number)[]) => {
      const v = p.reduce<unknown>((node, k) => (node as Record<string | number, unknown>)[k], rich);
      return typeof v === 'object' && v !== null && !Array.isArray(v);
    };
    const spots = paths(rich).flatMap((p) => (isObject(p) ? [p, [...p, 'extra']] : [p]));
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -2, max: 3 }),
      fc.constantFrom(1.5, 2 ** 53, Number.POSITIVE_INFINITY, Number.NaN),
      fc.string({ maxLength: 3 }),
      fc.constantFrom('shards/x.parquet', '../x.parquet', 'shards/x.txt', '/x.parquet', 'a\\b.parquet'),
      fc.constant([]),
      fc.constant(['a']),
      fc.constant([1]),
      fc.constant({}),
      fc.constant(JSON.parse('{"__proto__": {"x": 1}}')),
    );
    let taken = 0;
    fc.assert(
      fc.property(edited(rich, spots, value), (x) => {
        if (x === undefined) return;
        if (plainManifest(x) !== null) {
          taken++;
          const z = manifestSchemaForTests().safeParse(x);
          expect(z.success).toBe(true);
          expect(z.data).toEqual(x);
        }
      }),
      { numRuns: 3000 },
    );
    // Some edits keep the manifest valid (an optional field removed, a count changed): the check ran on those.
    expect(taken).toBeGreaterThan(100);
  });
});
