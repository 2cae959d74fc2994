import { type Bytes, INODE_HEADER, parseInodeHeader } from '../format';
import { LoadError, type LoadSource } from './sources';

export type { Bytes };

export interface OpenedStream {
  stream: ReadableStream<Bytes>;
  /** Size in bytes as stored (compressed, for gzip), or null when the server does not say. */
  total: number | null;
  /** The inode of the file served by `trajscope view`, when the server says (see INODE_HEADER). */
  ino?: number;
}

/** Opens a source as a byte stream; never reads it whole. */
export async function openByteStream(source: LoadSource, signal?: AbortSignal): Promise<OpenedStream> {
  if (source.kind === 'file') return { stream: source.file.stream(), total: source.file.size };
  let response: Response;
  try {
    response = await fetch(source.url, signal ? { signal } : {});
  } catch (e) {
    if (signal?.aborted) throw e;
    throw new LoadError(
      'network',
      source.name,
      `Could not fetch ${source.url}: the network failed or the server does not allow this page to read it (CORS). ${errorText(e)}`,
    );
  }
  // A static host with a single-page fallback answers a missing file with the app's own index.html.
  const html = (response.headers.get('content-type') ?? '').includes('text/html');
  if (response.status === 404 || (response.ok && html)) {
    throw new LoadError(
      'not-found',
      source.name,
      response.ok
        ? `${source.url} was not found: the server answered with a web page, not the file.`
        : `${source.url} was not found (HTTP 404).`,
    );
  }
  if (!response.ok || !response.body) {
    throw new LoadError('http', source.name, `Could not load ${source.url}: HTTP ${response.status} ${response.statusText}`.trim());
  }
  const length = Number(response.headers.get('content-length'));
  // With Content-Encoding the length counts encoded bytes while the body yields decoded ones.
  const encoded = response.headers.get('content-encoding');
  const total = Number.isFinite(length) && length > 0 && !encoded ? length : null;
  const ino = parseInodeHeader(response.headers.get(INODE_HEADER));
  return ino === undefined ? { stream: response.body, total } : { stream: response.body, total, ino };
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
