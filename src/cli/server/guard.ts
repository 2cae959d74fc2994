import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname, networkInterfaces } from 'node:os';

/**
 * The security headers every response carries (docs/adr/0010-hardening-view-server-and-input-limits.md). The app is
 * same-origin only: its scripts, workers and fetches come from this server; React's style attributes
 * need 'unsafe-inline' styles; the tokenizer's and zod's optional `new Function` fast paths fall back
 * without 'unsafe-eval'. Nothing may frame it.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // blob: workers can only be made by this origin's own scripts (npm run bench measures a baseline with one).
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];
const WILDCARD = new Set(['0.0.0.0', '::', '']);

/**
 * The host names a request may carry in `Host`: the loopback names and the address the server bound
 * (for a wildcard bind, this machine's name and interface addresses). Anything else is a DNS-rebinding
 * page whose own name resolves here, and is refused.
 */
export function allowedHosts(boundHost: string): Set<string> {
  const hosts = new Set([...LOOPBACK_NAMES, normalizeHost(boundHost)]);
  if (WILDCARD.has(boundHost)) {
    hosts.add(hostname().toLowerCase());
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) hosts.add(normalizeHost(a.address));
  }
  if (hosts.has('localhost')) hosts.add('localhost.');
  return hosts;
}

function normalizeHost(host: string): string {
  const h = host.toLowerCase();
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/** The host part of a `Host` header (`name:port`, `[v6]:port`), lower-cased; null when malformed. */
function hostOf(header: string | undefined): string | null {
  if (!header) return null;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(header.trim());
  return m?.[1] ? normalizeHost(m[1]) : null;
}

/**
 * Why a request must be refused, or null to serve it. 400: a `Host` not in the allow-list. 403: a
 * cross-origin `Origin`, or a `Sec-Fetch-Site` other than same-origin / none (a user typing the URL),
 * except a top-level navigation to the app page (a link from elsewhere opens the app, which then reads
 * everything same-origin; it cannot be framed, and the other page cannot read the response).
 */
export function refusal(req: IncomingMessage, hosts: ReadonlySet<string>, path: string): { status: 400 | 403; why: string } | null {
  const host = hostOf(req.headers.host);
  if (host === null || !hosts.has(host)) return { status: 400, why: 'unknown Host' };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) return { status: 403, why: 'cross-origin request' };
  const site = req.headers['sec-fetch-site'];
  if (site === undefined || site === 'same-origin' || site === 'none') return null;
  const navigation = req.headers['sec-fetch-mode'] === 'navigate' && req.headers['sec-fetch-dest'] === 'document';
  if (navigation && !path.startsWith('/api/') && !path.startsWith('/files/') && !path.startsWith('/run/')) return null;
  return { status: 403, why: 'cross-site request' };
}

export function setSecurityHeaders(res: ServerResponse): void {
  for (const [k, v] of Object.entries(SECURITY_HEADERS)) res.setHeader(k, v);
}
