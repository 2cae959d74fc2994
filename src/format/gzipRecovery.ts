import { Gunzip } from 'fflate';

/**
 * What a native gunzip (zlib, DecompressionStream) could not say when it failed: which bytes decompressed
 * before the failure. Native decoders drop the output of the write that hit the error, so a file with
 * garbage after its last gzip member lost its final lines (issue 18). This second pass, taken only after
 * such a failure, decodes the stored bytes again with fflate (JavaScript, about 3x slower than zlib, so
 * never the normal path), skips the `delivered` bytes already handed on, and hands on the rest, up to
 * where the data stops being gzip. It then says why it stopped, for one error naming the bad bytes.
 */
export async function recoverGzipTail(
  stored: AsyncIterable<Uint8Array>,
  delivered: number,
  onChunk: (chunk: Uint8Array) => void,
): Promise<{ reason: string }> {
  let skip = delivered;
  let storedAt = 0;
  const gunzip = new Gunzip((chunk) => {
    if (skip >= chunk.length) {
      skip -= chunk.length;
      return;
    }
    const rest = skip > 0 ? chunk.subarray(skip) : chunk;
    skip = 0;
    // fflate reuses nothing it hands out, but copy anyway: a parser may keep the chunk.
    onChunk(rest.slice());
  });
  try {
    for await (const chunk of stored) {
      storedAt += chunk.length;
      gunzip.push(chunk, false);
    }
    gunzip.push(new Uint8Array(0), true);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      reason: `the stored bytes stop being gzip data before byte ${storedAt.toLocaleString('en-US')} (${why}): the lines before are read, the rest is ignored`,
    };
  }
  return { reason: 'the gzip data could not be decompressed; every line before the failure is read' };
}
