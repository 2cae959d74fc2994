import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { regradeRowsOfBytes } from './regrade';

const bytesOf = (name: string) => {
  const b = readFileSync(new URL(`../analysis/regrade/${name}`, import.meta.url));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
};

describe('a regrade table opened on the page', () => {
  it('reads regrade.parquet (by its magic bytes) and regrade.journal alike', async () => {
    const run = await regradeRowsOfBytes(bytesOf('demo-run-lenient.parquet'));
    expect(run).toHaveLength(384);
    expect(run.filter((r) => r.error_kind === null && r.old_verdict !== r.new_verdict)).toHaveLength(5);
    const file = await regradeRowsOfBytes(bytesOf('demo-lenient.journal'));
    expect(file).toHaveLength(44);
    expect(file.find((r) => r.rollout_id === 'r-g1-02')).toMatchObject({ old_verdict: 'fail', new_verdict: 'pass', line: 14 });
  });

  it('says which row and field of a bad table is wrong', async () => {
    const bad = new TextEncoder().encode('{"file":"a","line":1}\n').buffer;
    await expect(regradeRowsOfBytes(bad)).rejects.toThrow(/^line 1: rollout_id must be a string, got nothing/);
    await expect(regradeRowsOfBytes(new Uint8Array([0xff, 0xfe, 0x00]).buffer)).rejects.toThrow();
  });
});
