import { concat, decompressIfGzip } from '../format';
import type { LoadSource } from './sources';

/** How much of a file the mapping preview reads: enough for its first records, little enough to be instant. */
export const PREVIEW_BYTES = 512 * 1024;

/** The start of a source's bytes, decompressed when it is gzip (told by its magic bytes, by the load's own check). */
export async function readHead(source: LoadSource, signal?: AbortSignal): Promise<Uint8Array> {
  const blob =
    source.kind === 'file'
      ? source.file.slice(0, PREVIEW_BYTES)
      : await (await fetch(source.url, { headers: { Range: `bytes=0-${PREVIEW_BYTES - 1}` }, ...(signal ? { signal } : {}) })).blob();
  const bytes = new Uint8Array(await blob.slice(0, PREVIEW_BYTES).arrayBuffer());
  const { stream, gzip } = await decompressIfGzip(new Blob([bytes]).stream());
  if (!gzip) return bytes;
  // A cut gzip stream ends in an error: keep what decompressed before it.
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < PREVIEW_BYTES) {
      const next = await reader.read();
      if (next.done) break;
      parts.push(next.value);
      size += next.value.length;
    }
  } catch {
    // the cut end of the member
  }
  return concat(parts);
}
