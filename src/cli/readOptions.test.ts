import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_LINE_BYTES } from '../format';
import { checkOptionsOf, readOptionsOf, wholeFlag } from './readOptions';

describe('read and check options, one spec for every command', () => {
  it('defaults when absent', async () => {
    expect(checkOptionsOf({})).toEqual({ driftThreshold: 1, isCap: 2, unknownAsFinished: false });
    expect(await readOptionsOf({})).toEqual({ from: 'auto', maxLineBytes: DEFAULT_MAX_LINE_BYTES });
  });

  it('reads what is given', async () => {
    expect(checkOptionsOf({ 'drift-threshold': '0', 'is-cap': '2.5', 'unknown-as-finished': true })).toEqual({
      driftThreshold: 0,
      isCap: 2.5,
      unknownAsFinished: true,
    });
    expect(await readOptionsOf({ from: 'verifiers-results', 'max-line-bytes': '1024' })).toEqual({
      from: 'verifiers-results',
      maxLineBytes: 1024,
    });
  });

  it('refuses a cap that would clip every ratio, and what is no number, naming the flag and the value', () => {
    for (const cap of ['0', '-1', 'abc', '', ' ', 'Infinity']) {
      expect(() => checkOptionsOf({ 'is-cap': cap })).toThrow(
        `--is-cap must be a positive number (the importance-ratio cap C, default 2), got "${cap}"`,
      );
    }
    for (const t of ['-0.5', 'abc', '']) {
      expect(() => checkOptionsOf({ 'drift-threshold': t })).toThrow(`--drift-threshold must be a non-negative number of nats, got "${t}"`);
    }
  });

  it('refuses a line limit or a count that is not a positive whole number', async () => {
    for (const n of ['0', '1.5', '-3', 'x']) {
      await expect(readOptionsOf({ 'max-line-bytes': n })).rejects.toThrow(
        `--max-line-bytes must be a positive whole number of bytes, got "${n}"`,
      );
      expect(() => wholeFlag('jobs', n, 1)).toThrow(`--jobs must be a positive whole number, got "${n}"`);
    }
  });

  it('refuses an unknown format and a mapping that cannot be read or is not valid', async () => {
    await expect(readOptionsOf({ from: 'nope' })).rejects.toThrow(/^--from must be auto or a format name \(v1, .*\), got "nope"$/);
    await expect(readOptionsOf({ map: '/nonexistent/map.json' })).rejects.toThrow(
      'cannot read the mapping /nonexistent/map.json: no such file',
    );
    const bad = join(mkdtempSync(join(tmpdir(), 'trajscope-map-')), 'map.json');
    writeFileSync(bad, '{"fields": 3}');
    await expect(readOptionsOf({ map: bad })).rejects.toThrow(`the mapping ${bad} is not valid`);
  });
});
