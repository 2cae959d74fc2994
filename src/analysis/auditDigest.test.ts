import { describe, expect, it } from 'vitest';
import { compareDigest, normalizeDigest, toHex } from './auditDigest';

const HEX = 'a6f81f41acd7f4e6f0f8bbaaf4395bdd615b2c6757ca7a9a178567d324327d26';

describe('normalizeDigest / compareDigest', () => {
  it('accepts sha256:<hex> and bare hex in any case', () => {
    expect(normalizeDigest(`sha256:${HEX}`)).toEqual({ kind: 'sha256', hex: HEX, prefixed: true });
    expect(normalizeDigest(HEX.toUpperCase())).toEqual({ kind: 'sha256', hex: HEX, prefixed: false });
    expect(normalizeDigest(`SHA-256:${HEX}`)).toMatchObject({ kind: 'sha256', hex: HEX });
  });

  it('says absent for a missing or blank digest and keeps anything else as unrecognised', () => {
    expect(normalizeDigest(undefined)).toEqual({ kind: 'absent' });
    expect(normalizeDigest('  ')).toEqual({ kind: 'absent' });
    expect(normalizeDigest('md5:0cc175b9c0f1b6a831c399e269772661')).toEqual({
      kind: 'unrecognised',
      text: 'md5:0cc175b9c0f1b6a831c399e269772661',
    });
    expect(normalizeDigest(`sha256:${HEX.slice(0, 16)}`).kind).toBe('unrecognised');
  });

  it('compares with the computed digest', () => {
    expect(compareDigest(`sha256:${HEX}`, HEX)).toEqual({ status: 'match', hex: HEX });
    expect(compareDigest(HEX, HEX.toUpperCase())).toEqual({ status: 'match', hex: HEX });
    const other = `${'0'.repeat(63)}1`;
    expect(compareDigest(`sha256:${other}`, HEX)).toEqual({ status: 'mismatch', recorded: other, computed: HEX });
    expect(compareDigest(undefined, HEX)).toEqual({ status: 'absent', computed: HEX });
    expect(compareDigest('crc32:1234', HEX)).toEqual({ status: 'unrecognised', recorded: 'crc32:1234', computed: HEX });
  });

  it('prints bytes as lower-case hex', () => {
    expect(toHex(new Uint8Array([0, 15, 16, 255]))).toBe('000f10ff');
  });
});
