import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson } from '../../format/json';
import {
  isContentDigest,
  isReviewEntryError,
  MAX_REVIEW_ENTRY_BYTES,
  REVIEW_LOG_PATH,
  type ReviewEntryError,
  type ReviewLogEntry,
  toReviewLogEntry,
} from '../../format/reviews/reviewLog';
import { type ReviewLog, ReviewLogRefused } from './reviewLog';

export const REVIEWS_URL = '/api/reviews';

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const error = (status: number, message: string, field?: string): Answer => ({
  status,
  body: field === undefined ? { error: message } : { error: message, field },
});

/**
 * `/api/reviews` (docs/adr/0026): GET answers `{ log, entries, skipped }`, the log's entries in order
 * (`?digest=` keeps one file's), for the page to fold; POST appends one entry, the one write the view
 * server takes. A POST must carry this page's own `Origin` (the guard already refused another's) and a
 * JSON body of at most MAX_REVIEW_ENTRY_BYTES, so a form on another site cannot post one (no JSON
 * content type without a preflight, which is refused) and nothing large is held. After an append,
 * `announce` tells every open page which file's reviews changed. Without a log (the server serves named
 * files, not one directory) every request is a 404, and the page keeps reviews in the browser.
 */
export async function serveReviews(
  req: IncomingMessage,
  res: ServerResponse,
  log: ReviewLog | undefined,
  announce: (digest: string) => void,
): Promise<void> {
  const answer = await answerReviews(req, log, announce).catch((e: unknown): Answer => {
    if (e instanceof ReviewLogRefused) return error(403, e.message);
    const code = (e as NodeJS.ErrnoException)?.code;
    return error(500, `could not use ${REVIEW_LOG_PATH}${code ? ` (${code})` : ''}`);
  });
  const text = JSON.stringify(answer.body);
  res.writeHead(answer.status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-store',
    ...answer.headers,
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

async function answerReviews(req: IncomingMessage, log: ReviewLog | undefined, announce: (digest: string) => void): Promise<Answer> {
  if (!log) return error(404, 'reviews are kept in the browser here: `trajscope view DIR` keeps them in the run');
  if (req.method === 'GET' || req.method === 'HEAD') {
    const digest = new URL(req.url ?? '/', 'http://localhost').searchParams.get('digest') ?? undefined;
    if (digest !== undefined && !isContentDigest(digest))
      return error(400, 'digest must be sha256: and 64 lower-case hex digits', 'digest');
    const { entries, skipped } = await log.read(digest);
    return { status: 200, body: { log: REVIEW_LOG_PATH, entries, skipped } };
  }
  if (req.method !== 'POST') return { ...error(405, 'GET, HEAD or POST'), headers: { Allow: 'GET, HEAD, POST' } };
  if (req.headers.origin !== `http://${req.headers.host}`) return error(403, 'a review must be posted by this page (no matching Origin)');
  const type = (req.headers['content-type'] ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/json') return error(415, 'Content-Type must be application/json');
  const body = await readBody(req);
  if (body === null) return { ...error(413, `a review is at most ${MAX_REVIEW_ENTRY_BYTES} bytes`), headers: { Connection: 'close' } };
  const entry = parseEntry(body);
  if (isReviewEntryError(entry)) return error(400, entry.message, entry.field);
  await log.append(entry);
  announce(entry.digest);
  return { status: 201, body: entry };
}

function parseEntry(body: Buffer): ReviewLogEntry | ReviewEntryError {
  let value: unknown;
  try {
    value = parseJson(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (e) {
    return { field: 'body', message: `body must be one JSON object (${e instanceof Error ? e.message : String(e)})` };
  }
  return toReviewLogEntry(value);
}

/** The request body, or null once it passes the limit (declared or sent): the rest is never read. */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_REVIEW_ENTRY_BYTES) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REVIEW_ENTRY_BYTES) {
        req.pause();
        req.removeAllListeners('data');
        resolve(null);
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}
