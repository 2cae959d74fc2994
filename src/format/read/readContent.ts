import type { Bytes, Content } from './gzip';
import { recoverGzipTail } from './gzipRecovery';

export interface ReadContentOptions {
  signal?: AbortSignal;
  /**
   * Opens the stored bytes again from their start, for the recovery pass after a gzip stream broke.
   * Absent when they cannot be read twice (standard input): the lines delivered before the failure stand.
   */
  reopen?: () => Promise<ReadableStream<Bytes>>;
}

/**
 * Reads a content (decompressIfGzip) to its end, handing each chunk to `onChunk` in order and waiting
 * for it. A gzip stream that fails part-way (garbage after the last member, a cut or corrupt file) keeps
 * every line that decompressed before the failure: the stored bytes are decoded again past what was
 * delivered (recoverGzipTail), and the reason for the rest is returned, for one error; null when the
 * content was read to its end. Rejects with the failure itself when nothing decompressed at all (not a
 * damaged gzip file but an unreadable one), when the stored bytes could not be read, when `onChunk`
 * throws, or with the abort reason.
 */
export async function readContent(
  content: Content,
  onChunk: (chunk: Bytes) => void | Promise<void>,
  { signal, reopen }: ReadContentOptions = {},
): Promise<string | null> {
  const reader = content.stream.getReader();
  let delivered = 0;
  let failure: { error: unknown } | null = null;
  let ended = false;
  try {
    for (;;) {
      signal?.throwIfAborted();
      let next: ReadableStreamReadResult<Bytes>;
      try {
        next = await reader.read();
      } catch (error) {
        if (!content.gzip || content.sourceFailed()) throw error;
        failure = { error };
        break;
      }
      if (next.done) {
        ended = true;
        return null;
      }
      delivered += next.value.length;
      await onChunk(next.value);
    }
  } finally {
    reader.releaseLock();
    // Stopped before the end (an abort, a failure): release what is left unread (an open fetch, a file).
    if (!ended) content.cancel();
  }
  let recovered = 0;
  const count = (chunk: Bytes) => {
    recovered += chunk.length;
    return onChunk(chunk);
  };
  const { reason } = reopen
    ? await recoverGzipTail(chunksOf(await reopen()), delivered, count)
    : { reason: `the gzip data could not be decompressed (${errorText(failure.error)}); the lines before are read` };
  if (delivered + recovered === 0) throw failure.error;
  return reason;
}

/** A stream's chunks, for `for await`; stopping early cancels the rest. */
export async function* chunksOf(stream: ReadableStream<Bytes>): AsyncGenerator<Bytes> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
    done = true;
  } finally {
    if (!done) reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
