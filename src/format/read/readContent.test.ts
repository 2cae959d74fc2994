import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concat as join } from '../jsonl';
import { type Bytes, decompressIfGzip } from './gzip';
import { readContent } from './readContent';

const enc = new TextEncoder();
const dec = new TextDecoder();
const TEXT = Array.from({ length: 3000 }, (_, i) => `{"line":${i},"pad":"${'x'.repeat(i % 97)}"}\n`).join('');
const GZ = new Uint8Array(gzipSync(TEXT));

/** A byte source handing `bytes` over in chunks of `size`, counting cancels; `failAt`: a read error once that many bytes went. */
function source(bytes: Uint8Array, size = 4096, failAt?: number) {
  let at = 0;
  const seen = { cancelled: 0 };
  const stream = new ReadableStream<Bytes>({
    pull(controller) {
      if (failAt !== undefined && at >= failAt) return controller.error(new Error('the disk went away'));
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
    cancel() {
      seen.cancelled++;
    },
  });
  return { stream, seen };
}

/** Reads a source through the byte reader: its content as text, the damage reported, and what it counted. */
async function read(bytes: Uint8Array, options: { reopen?: boolean; plain?: boolean; size?: number } = {}) {
  let stored = 0;
  const parts: Bytes[] = [];
  const content = await decompressIfGzip(source(bytes, options.size).stream, (n) => (stored += n), { plain: options.plain ?? false });
  let reopened = 0;
  const damage = await readContent(
    content,
    (chunk) => {
      parts.push(chunk.slice());
    },
    options.reopen === false
      ? {}
      : {
          reopen: async () => {
            reopened++;
            return source(bytes, options.size).stream;
          },
        },
  );
  const all = join(parts);
  return { text: dec.decode(all), bytes: all, gzip: content.gzip, damage, stored, reopened };
}

describe('the byte reader (format/read)', () => {
  it('hands plain bytes on unchanged and counts them as stored', async () => {
    const bytes = enc.encode(TEXT);
    expect(await read(bytes)).toMatchObject({ text: TEXT, gzip: false, damage: null, stored: bytes.length, reopened: 0 });
  });

  it('tells gzip by its magic bytes and decompresses it, counting the compressed bytes as stored', async () => {
    // One-byte chunks: the magic itself arrives in two reads.
    for (const size of [1, 7, 4096])
      expect(await read(GZ, { size })).toMatchObject({ text: TEXT, gzip: true, damage: null, stored: GZ.length, reopened: 0 });
  });

  it('does not sniff bytes known to be lines (a later part of a plain file), even when they begin like gzip', async () => {
    const { bytes, gzip } = await read(GZ, { plain: true });
    expect(gzip).toBe(false);
    expect(bytes).toEqual(GZ);
  });

  it('keeps every byte before garbage after the last gzip member, and names where the gzip data stops', async () => {
    const bytes = join([GZ, enc.encode('trailing garbage, not gzip')]);
    const { text, damage, reopened } = await read(bytes, { size: 1 << 20 });
    expect(text).toBe(TEXT);
    expect(reopened).toBe(1);
    expect(damage).toBe(
      `the stored bytes stop being gzip data before byte ${bytes.length.toLocaleString('en-US')} (invalid gzip data): the lines before are read, the rest is ignored`,
    );
  });

  it('of a cut gzip stream keeps a prefix of the content, at least what the native decoder gave (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 10, max: GZ.length - 1 }), fc.integer({ min: 64, max: 9000 }), async (cut, size) => {
        const bytes = GZ.slice(0, cut);
        // Nothing decompressed is a rejection (the next test): here, as no content.
        const native = await read(bytes, { reopen: false, size }).catch(() => null);
        const recovered = await read(bytes, { size }).catch(() => null);
        if (native) {
          expect(TEXT.startsWith(native.text)).toBe(true);
          expect(native.damage).toBe('the gzip data could not be decompressed (unexpected end of file); the lines before are read');
        }
        if (recovered) {
          expect(TEXT.startsWith(recovered.text)).toBe(true);
          expect(recovered.damage).not.toBeNull();
        }
        expect(recovered?.text.length ?? 0).toBeGreaterThanOrEqual(native?.text.length ?? 0);
      }),
      { seed: 30, numRuns: 25 },
    );
  });

  it('rejects with the decoder error when nothing decompressed at all (an unreadable file, not a damaged one)', async () => {
    await expect(read(GZ.slice(0, 12))).rejects.toThrow('unexpected end of file');
    await expect(read(GZ.slice(0, 12), { reopen: false })).rejects.toThrow('unexpected end of file');
  });

  it('does not take a failed read of the stored bytes for bad gzip: it rejects with it, reading nothing again', async () => {
    for (const bytes of [GZ, enc.encode(TEXT)]) {
      const content = await decompressIfGzip(source(bytes, 1000, 5000).stream);
      let reopened = 0;
      const reading = readContent(content, () => {}, {
        reopen: async () => {
          reopened++;
          return source(bytes).stream;
        },
      });
      await expect(reading).rejects.toThrow('the disk went away');
      expect(reopened).toBe(0);
    }
  });

  it("throws a consumer's own error on, unrecovered, and cancels the source", async () => {
    // Plain: a decompressor reads ahead, so a source this small is read whole before its first chunk is out.
    for (const bytes of [enc.encode(TEXT)]) {
      const { stream, seen } = source(bytes, 1000);
      let reopened = 0;
      const reading = readContent(
        await decompressIfGzip(stream),
        () => {
          throw new Error('the parser broke');
        },
        {
          reopen: async () => {
            reopened++;
            return source(bytes).stream;
          },
        },
      );
      await expect(reading).rejects.toThrow('the parser broke');
      expect(reopened).toBe(0);
      expect(seen.cancelled).toBe(1);
    }
    const gzipped = readContent(await decompressIfGzip(source(GZ, 1000).stream), () => {
      throw new Error('the parser broke');
    });
    await expect(gzipped).rejects.toThrow('the parser broke');
  });

  it('waits for each chunk, recovered ones too, so a slow consumer holds the reading back', async () => {
    const bytes = join([GZ, enc.encode('garbage')]);
    let busy = false;
    let overlapped = false;
    const parts: Uint8Array[] = [];
    const damage = await readContent(
      await decompressIfGzip(source(bytes, 1 << 20).stream),
      async (chunk) => {
        overlapped ||= busy;
        busy = true;
        await new Promise((resolve) => setTimeout(resolve, 0));
        parts.push(chunk.slice());
        busy = false;
      },
      { reopen: async () => source(bytes, 1 << 20).stream },
    );
    expect(overlapped).toBe(false);
    expect(damage).toMatch(/stop being gzip data/);
    expect(dec.decode(join(parts))).toBe(TEXT);
  });

  it('stops with the abort reason and cancels the source', async () => {
    const { stream, seen } = source(enc.encode(TEXT), 100);
    const abort = new AbortController();
    const reading = readContent(await decompressIfGzip(stream), () => abort.abort(new Error('closed by the page')), {
      signal: abort.signal,
    });
    await expect(reading).rejects.toThrow('closed by the page');
    expect(seen.cancelled).toBe(1);
  });
});
