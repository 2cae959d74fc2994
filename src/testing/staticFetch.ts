import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// Tests only: what the page's run reader sees of a static host, without a server.

/** A static host over a folder: ranges answered 206 (or ignored: 200 and the whole file), every request logged. */
export function staticFetch(root: string, ranges = true) {
  const log: { path: string; range: string | null; status: number }[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const path = decodeURIComponent(new URL(String(input)).pathname);
    const range = new Headers(init?.headers).get('Range');
    let body: Uint8Array;
    try {
      body = readFileSync(join(root, path));
    } catch {
      log.push({ path, range, status: 404 });
      return new Response('not found', { status: 404 });
    }
    const m = ranges && range ? /^bytes=(\d+)-(\d+)$/.exec(range) : null;
    if (m) {
      log.push({ path, range, status: 206 });
      return new Response(body.slice(Number(m[1]), Number(m[2]) + 1) as unknown as BodyInit, { status: 206 });
    }
    log.push({ path, range, status: 200 });
    return new Response(body as unknown as BodyInit, { status: 200 });
  };
  return { fetch: fetch as typeof globalThis.fetch, log };
}
