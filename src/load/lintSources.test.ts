import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildRollout, MINIMAL_RECORD_LINE, toJsonl } from '../testing/builders';
import { chunkedFile } from '../testing/chunks';
import { type LoadProgress, lintSources } from './lintSources';
import { fileSource, LoadError, sourceKey } from './sources';

const encoder = new TextEncoder();

const text = toJsonl([
  buildRollout({ rollout_id: 'r-1' }),
  '{not json',
  buildRollout({ rollout_id: 'r-2' }),
  '',
  '[1]',
  MINIMAL_RECORD_LINE,
]);

describe('lintSources', () => {
  it('lints good lines and reports bad ones by line number, whatever the chunking', async () => {
    for (const size of [1, 2, 7, 4096]) {
      const { report, files } = await lintSources([fileSource('local:a.jsonl', chunkedFile(encoder.encode(text), 'a.jsonl', size))]);
      expect(report.rollouts.map((r) => r.rollout_id)).toEqual(['r-1', 'r-2', 'r-003']);
      expect(report.parse_errors.map((e) => [e.line, e.code])).toEqual([
        [2, 'E_PARSE'],
        [5, 'E_PARSE'],
      ]);
      expect(report.summary.lines).toBe(6);
      expect(files).toMatchObject([{ name: 'a.jsonl', bytes: text.length, lines: 6, gzip: false }]);
    }
  });

  it('detects gzip by its magic bytes, not by the name, and counts compressed bytes as progress', async () => {
    const gz = new Uint8Array(gzipSync(encoder.encode(text)));
    const progress: LoadProgress[] = [];
    for (const size of [1, 3, 64]) {
      progress.length = 0;
      const { report, files } = await lintSources([fileSource('local:plain-name.jsonl', chunkedFile(gz, 'plain-name.jsonl', size))], {
        onProgress: (p) => progress.push(p),
      });
      expect(report.rollouts).toHaveLength(3);
      expect(files[0]).toMatchObject({ gzip: true, bytes: gz.length });
      expect(progress.at(-1)).toMatchObject({ bytesRead: gz.length, totalBytes: gz.length, rollouts: 3, parseErrors: 2 });
      expect(progress.every((p, i) => i === 0 || p.bytesRead >= (progress[i - 1]?.bytesRead ?? 0))).toBe(true);
      // Said at most every 100 ms, not per chunk (each one is a message and a render on the page).
      if (size === 1) expect(progress.length).toBeLessThan(gz.length / 4);
    }
  });

  it('says its progress with each snapshot, so the strip and the rows it shows agree', async () => {
    // Small chunks: the first rollout is in after a few of them, within 100 ms of the first progress.
    const said: [string, number][] = [];
    await lintSources([fileSource('local:a.jsonl', chunkedFile(encoder.encode(text), 'a.jsonl', 16))], {
      onProgress: (p) => said.push(['progress', p.rollouts]),
      onSnapshot: (s) => said.push(['snapshot', s.rollouts]),
    });
    const snapshots = said.flatMap(([kind, n], i) => (kind === 'snapshot' ? [[said[i - 1], n] as const] : []));
    expect(snapshots.length).toBeGreaterThan(0);
    for (const [before, n] of snapshots) expect(before).toEqual(['progress', n]);
  });

  it('judges several files together: a rollout in both is a duplicate in both', async () => {
    const line = toJsonl([buildRollout({ rollout_id: 'same' })]);
    const { report, files } = await lintSources([
      fileSource('local:a.jsonl', new File([line], 'a.jsonl')),
      fileSource('local:b.jsonl', new File([line], 'b.jsonl')),
    ]);
    expect(files.map((f) => f.name)).toEqual(['a.jsonl', 'b.jsonl']);
    expect(report.rollouts.map((r) => [r.file, r.findings.map((f) => f.code)])).toEqual([
      ['a.jsonl', ['E_DUPLICATE_ROLLOUT']],
      ['b.jsonl', ['E_DUPLICATE_ROLLOUT']],
    ]);
  });

  it('nesting 2,000 or 5,000 deep in `sampling` costs only that line, and the result crosses to the page (structured clone)', async () => {
    for (const depth of [2000, 5000]) {
      let deep = '1';
      for (let i = 0; i < depth; i++) deep = `{"a":${deep}}`;
      const bad = JSON.stringify(buildRollout({ rollout_id: 'deep' })).replace(/}$/, `,"sampling":${deep}}`);
      const body = `${toJsonl([buildRollout({ rollout_id: 'a' })])}${bad}\n${toJsonl([buildRollout({ rollout_id: 'b' })])}`;
      const result = await lintSources([fileSource('local:d.jsonl', new File([body], 'd.jsonl'))]);
      expect(result.report.rollouts.map((r) => r.rollout_id)).toEqual(['a', 'b']);
      expect(result.report.parse_errors).toEqual([
        expect.objectContaining({ line: 2, message: 'nested deeper than 256 levels (the limit for one value)' }),
      ]);
      // What the parse worker posts to the page: it failed here before ("parse worker failed").
      expect(() => structuredClone(result)).not.toThrow();
    }
  });

  it('keeps every line of a gzip file followed by garbage, and reports the garbage once', async () => {
    const lines = Array.from({ length: 200 }, (_, i) => ({ ...buildRollout({ rollout_id: `g-${i}` }), pad: 'x'.repeat(500) }));
    const gz = new Uint8Array(Buffer.concat([gzipSync(encoder.encode(toJsonl(lines))), Buffer.from('trailing garbage, not gzip')]));
    for (const size of [4096, 1 << 20]) {
      const { report } = await lintSources([fileSource('local:t.jsonl.gz', chunkedFile(gz, 't.jsonl.gz', size))]);
      expect(report.summary.rollouts).toBe(200);
      expect(report.parse_errors).toHaveLength(1);
      expect(report.parse_errors[0]).toMatchObject({ line: 201, code: 'E_PARSE', message: expect.stringMatching(/stop being gzip data/) });
    }
  });

  it('says a corrupt gzip file could not be decompressed', async () => {
    const gz = new Uint8Array(gzipSync(encoder.encode(text))).slice(0, 30);
    const error = await lintSources([fileSource('local:x.gz', new File([gz], 'x.gz'))]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoadError);
    expect(error).toMatchObject({ reason: 'decompress' });
  });

  it('refuses, with a message naming the sizes, a file that would not fit in the memory allowed', async () => {
    const file = new File([encoder.encode(text)], 'big.jsonl');
    const error = await lintSources([fileSource('local:big.jsonl', file)], { memoryLimit: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoadError);
    expect(error).toMatchObject({ reason: 'too-large', source: 'big.jsonl' });
    expect(String((error as Error).message)).toContain('trajscope lint');
    const ok = await lintSources([fileSource('local:big.jsonl', file)], { memoryLimit: 10 * file.size });
    expect(ok.report.summary.rollouts).toBeGreaterThan(0);
  });

  it('loads an empty file as no rollouts', async () => {
    const { report } = await lintSources([fileSource('local:e.jsonl', new File([], 'e.jsonl'))]);
    expect(report.summary).toEqual({ lines: 0, rollouts: 0, errors: 0, warnings: 0 });
  });
});

describe('sourceKey', () => {
  it('tells two opened files apart even under one name, and keeps one file stable', () => {
    const a = new File(['x'], 'a.jsonl');
    const b = new File(['x'], 'a.jsonl');
    expect(sourceKey(fileSource('local:a.jsonl', a))).toBe(sourceKey(fileSource('local:a.jsonl', a)));
    expect(sourceKey(fileSource('local:a.jsonl', a))).not.toBe(sourceKey(fileSource('local:a.jsonl', b)));
  });
});
