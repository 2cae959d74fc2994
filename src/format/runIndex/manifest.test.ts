import { describe, expect, it } from 'vitest';
import { parseRunManifest } from './manifest';

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
    expect(parseRunManifest(JSON.stringify(bad))).toEqual({ error: expect.stringMatching(/^manifest.json: files.0.shards.0.rows: /) });
    expect(parseRunManifest(JSON.stringify({ ...good, version: 2 }))).toEqual({ error: expect.stringMatching(/version/) });
    expect(parseRunManifest('<html>')).toEqual({ error: expect.stringMatching(/not JSON/) });
  });
});
