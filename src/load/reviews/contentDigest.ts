import { sha256 } from '@noble/hashes/sha2.js';
import { queryOptions } from '@tanstack/react-query';
import { toHex } from '../../analysis';
import { decompressIfGzip } from '../../format';
import { type Bytes, openByteStream } from '../byteStream';
import { type LoadSource, sourceKey } from '../sources';

/*
 * A file's content digest names the reviews made on it. It is computed only when reviews are first
 * needed, by reading the source again (the parser never holds the whole file), through an incremental
 * SHA-256: SubtleCrypto hashes one buffer at once and so cannot stream a file of any size.
 * The digest is of the decompressed content, so `rollouts.jsonl` and its `.gz` share their reviews.
 */

/**
 * Hash in slices and yield between them, so a large file does not freeze the page: 256 KiB is a few ms
 * of SHA-256 (8 MiB made tasks of 80 ms on a loaded machine, 1 MiB still 50).
 */
const YIELD_EVERY_BYTES = 256 * 1024;

/** Lets the page run before the next slice: a message to itself, as nested timeouts are clamped to 4 ms each. */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** `sha256:<hex>` of everything a byte stream yields. */
export async function digestStream(stream: ReadableStream<Bytes>, signal?: AbortSignal): Promise<string> {
  const hash = sha256.create();
  const reader = stream.getReader();
  let sinceYield = 0;
  try {
    for (;;) {
      signal?.throwIfAborted();
      const next = await reader.read();
      if (next.done) break;
      // A chunk may itself be larger than a slice (a decompressed block): cut it.
      for (let at = 0; at < next.value.length; at += YIELD_EVERY_BYTES) {
        const piece = next.value.subarray(at, at + YIELD_EVERY_BYTES);
        hash.update(piece);
        sinceYield += piece.length;
        if (sinceYield >= YIELD_EVERY_BYTES) {
          sinceYield = 0;
          await yieldToPage();
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
  return `sha256:${toHex(hash.digest())}`;
}

/** `sha256:<hex>` of a source's (decompressed) content, read again from the start. */
async function contentDigest(source: LoadSource, signal?: AbortSignal): Promise<string> {
  const { stream } = await openByteStream(source, signal);
  const content = await decompressIfGzip(stream);
  return digestStream(content.stream, signal);
}

export function contentDigestOptions(source: LoadSource | undefined) {
  return queryOptions({
    queryKey: ['content-digest', source ? sourceKey(source) : null] as const,
    queryFn: ({ signal }) => {
      if (!source) throw new Error('no source');
      return contentDigest(source, signal);
    },
    // The bytes behind a source key do not change (a live file's growth is not followed here).
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    enabled: source !== undefined,
  });
}
