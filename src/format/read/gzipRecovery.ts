import { Gunzip } from 'fflate';
import { formatCount } from '../counting';
import type { Bytes } from './gzip';

/**
 * Compressed bytes handed to fflate at a time. A push's output waits in memory until it is delivered,
 * so a piece bounds it: at gzip's largest ratio (about 1032:1) 64 KiB inflates to some 66 MB, where a
 * whole 1 MiB chunk of a gzip bomb could inflate to a GB.
 */
const PIECE_BYTES = 64 * 1024;

/**
 * What a native gunzip (zlib, DecompressionStream) could not say when it failed: which bytes decompressed
 * before the failure. Native decoders drop the output of the write that hit the error, so a file with
 * garbage after its last gzip member lost its final lines (issue 18). This second pass, taken only after
 * such a failure, decodes the stored bytes again with fflate (JavaScript, about 3x slower than zlib, so
 * never the normal path), skips the `delivered` bytes already handed on, and hands on the rest (waiting
 * for `onChunk` between pieces), up to where the data stops being gzip. It then says why it stopped, for
 * one error naming the bad bytes. An error thrown by `onChunk` is its own, and is thrown on.
 */
export async function recoverGzipTail(
  stored: AsyncIterable<Uint8Array>,
  delivered: number,
  onChunk: (chunk: Bytes) => void | Promise<void>,
): Promise<{ reason: string }> {
  let skip = delivered;
  let storedAt = 0;
  const out: Bytes[] = [];
  const gunzip = new Gunzip((chunk) => {
    if (skip >= chunk.length) {
      skip -= chunk.length;
      return;
    }
    const rest = skip > 0 ? chunk.subarray(skip) : chunk;
    skip = 0;
    // fflate reuses nothing it hands out, but copy anyway: a parser may keep the chunk.
    out.push(rest.slice());
  });
  /** Inflates a piece and delivers what came out before any error, which it returns. */
  const inflate = async (piece: Uint8Array, final: boolean): Promise<unknown> => {
    let error: unknown = null;
    try {
      gunzip.push(piece, final);
    } catch (e) {
      error = e ?? 'unknown error';
    }
    for (const chunk of out.splice(0)) await onChunk(chunk);
    return error;
  };
  const stopped = (e: unknown) => ({
    reason: `the stored bytes stop being gzip data before byte ${formatCount(storedAt)} (${e instanceof Error ? e.message : String(e)}): the lines before are read, the rest is ignored`,
  });
  const chunks = stored[Symbol.asyncIterator]();
  let open = true;
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await chunks.next();
      } catch (e) {
        open = false;
        return stopped(e);
      }
      if (next.done) {
        open = false;
        break;
      }
      storedAt += next.value.length;
      for (let at = 0; at < next.value.length; at += PIECE_BYTES) {
        const error = await inflate(next.value.subarray(at, at + PIECE_BYTES), false);
        if (error !== null) return stopped(error);
      }
    }
    const error = await inflate(new Uint8Array(0), true);
    if (error !== null) return stopped(error);
  } finally {
    // Stopped early (bad bytes, or onChunk threw): let go of the stored bytes still unread.
    if (open) await chunks.return?.();
  }
  return { reason: 'the gzip data could not be decompressed; every line before the failure is read' };
}
