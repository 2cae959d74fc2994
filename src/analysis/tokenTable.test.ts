import { describe, expect, it } from 'vitest';
import { readTokenTable, writeTokenTable } from './tokenTable';

const enc = new TextEncoder();
// A four-id vocabulary: "a", the two halves of "é" (C3 A9), and an added token.
const VOCAB = [enc.encode('a'), Uint8Array.of(0xc3), Uint8Array.of(0xa9), enc.encode('<|end|>')];
const table = () => writeTokenTable({ size: VOCAB.length, bytesOf: (id) => VOCAB[id] ?? new Uint8Array(), added: [3] });
const copy = (b: Uint8Array) => b.slice().buffer;

describe('token table', () => {
  it('decodes a run of ids as UTF-8 together, so a character split over two tokens comes out whole', () => {
    const d = readTokenTable(copy(table()));
    expect(d.decode([0, 1, 2, 0])).toBe('aéa');
    expect(d.decode([1])).toBe('\uFFFD');
  });

  it('decodes an added token on its own: a half character before it is broken there, not joined across it', () => {
    const d = readTokenTable(copy(table()));
    expect(d.decode([1, 3, 2])).toBe('\uFFFD<|end|>\uFFFD');
    expect(d.decode([3, 0])).toBe('<|end|>a');
  });

  it('keeps a byte-order mark a token decodes to, even at the start (the tokenizer does)', () => {
    const bom = writeTokenTable({ size: 1, bytesOf: () => Uint8Array.of(0xef, 0xbb, 0xbf), added: [] });
    expect(readTokenTable(copy(bom)).decode([0, 0])).toBe('\uFEFF\uFEFF');
  });

  it('decodes an id outside the vocabulary as nothing, as the tokenizer does', () => {
    const d = readTokenTable(copy(table()));
    expect(d.decode([0, 4, -1, 99, 0])).toBe('aa');
  });

  it('refuses bytes that are not a table, and a table cut short', () => {
    expect(() => readTokenTable(copy(enc.encode('{"vocab": {}}')))).toThrow(/not a Trajscope token table/);
    const t = table();
    expect(() => readTokenTable(copy(t.subarray(0, t.length - 1)))).toThrow(/its lengths say/);
  });

  it('refuses to write a token longer than its 16-bit length', () => {
    expect(() => writeTokenTable({ size: 1, bytesOf: () => new Uint8Array(70_000), added: [] })).toThrow(/token 0 is 70000 bytes/);
  });
});
