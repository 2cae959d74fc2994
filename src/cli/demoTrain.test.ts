import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { runDemo } from './demo';
import { gzipText, stepFileName, writeTrainRun } from './demoTrain';

describe('trajscope demo --train', () => {
  it('rejects bad arguments with exit 2 and says why', async () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runDemo(['--train'])).toBe(2);
      expect(await runDemo(['--steps', '3', '--out', 'x.jsonl'])).toBe(2);
      expect(await runDemo(['--train', '--out', 'd', '--steps', '0'])).toBe(2);
      expect(await runDemo(['--train', '--out', 'd', '--async', '-1'])).toBe(2);
      expect(await runDemo(['--train', '--out', 'd', '--groups', '2'])).toBe(2);
      const said = err.mock.calls.map((c) => String(c[0])).join('');
      expect(said).toContain('--out DIR is required');
      expect(said).toContain('--steps needs --train');
      expect(said).toContain('--steps must be an integer >= 1');
    } finally {
      err.mockRestore();
    }
  });

  it('never writes over an earlier run: a directory with step files is refused before anything runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-train-'));
    writeFileSync(join(dir, 'step_0000.jsonl'), '');
    const base = { steps: 1, seed: 1, async: 0, drGrpo: false, perGroup: 2, gzip: false, live: false };
    await expect(writeTrainRun({ ...base, out: dir }, () => {})).rejects.toThrow(/already holds 1 step files/);
  });

  it('names step files by update and gzips without a timestamp', () => {
    expect(stepFileName(7, false)).toBe('step_0007.jsonl');
    expect(stepFileName(12, true)).toBe('step_0012.jsonl.gz');
    const a = gzipText('{"a":1}\n');
    expect(a.equals(gzipText('{"a":1}\n'))).toBe(true);
    expect(a.readUInt32LE(4)).toBe(0); // MTIME
    expect(gunzipSync(a).toString()).toBe('{"a":1}\n');
  });
});
