import { parseJson, shownValue } from '../json';
import { isReviewVerdict, type Review, type ReviewKey, reviewKey } from './review';

/*
 * The shared review log (docs/adr/0026): under `trajscope view DIR` reviews are kept in
 * DIR/.trajscope/reviews.jsonl, one entry a line, only ever appended. A remove is an entry too. Reading
 * folds the entries in order; a line that is not an entry is skipped and counted, never hiding the others.
 */

/** Where the log lives, relative to the served run directory. */
export const REVIEW_LOG_PATH = '.trajscope/reviews.jsonl';

/** The longest entry, in bytes: a POST body past it is refused, and a log line past it is skipped unread. */
export const MAX_REVIEW_ENTRY_BYTES = 64 * 1024;

/** A content digest as `contentDigest` writes it. */
const DIGEST = /^sha256:[0-9a-f]{64}$/;

export function isContentDigest(v: unknown): v is string {
  return typeof v === 'string' && DIGEST.test(v);
}

interface ReviewPutEntry extends Review {
  op: 'put';
  digest: string;
}

/** A remove names the review it removes and who removed it, when; it has no verdict or note. */
interface ReviewRemoveEntry extends Pick<Review, 'rollout_id' | 'attempt_id' | 'reviewer' | 'timestamp'> {
  op: 'remove';
  digest: string;
}

export type ReviewLogEntry = ReviewPutEntry | ReviewRemoveEntry;

/** What is wrong with an entry, naming the field. */
export interface ReviewEntryError {
  field: string;
  message: string;
}

const bad = (field: string, must: string, got: unknown): ReviewEntryError => ({
  field,
  message: `${field} must be ${must}, got ${shownValue(got)}`,
});

/**
 * Validates one entry field by field; every field is required (the log is written by machines, so a
 * missing field is a bug, not a default). Fields other than these are dropped.
 */
export function toReviewLogEntry(v: unknown): ReviewLogEntry | ReviewEntryError {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return bad('entry', 'a JSON object', v);
  const o = v as Record<string, unknown>;
  if (o.op !== 'put' && o.op !== 'remove') return bad('op', '"put" or "remove"', o.op);
  if (!isContentDigest(o.digest)) return bad('digest', 'sha256: and 64 lower-case hex digits', o.digest);
  if (typeof o.rollout_id !== 'string' || o.rollout_id === '') return bad('rollout_id', 'a non-empty string', o.rollout_id);
  if (o.attempt_id !== null && typeof o.attempt_id !== 'string') return bad('attempt_id', 'a string or null', o.attempt_id);
  if (typeof o.reviewer !== 'string') return bad('reviewer', 'a string', o.reviewer);
  if (typeof o.timestamp !== 'string' || Number.isNaN(Date.parse(o.timestamp))) return bad('timestamp', 'an ISO 8601 date', o.timestamp);
  const key = { digest: o.digest, rollout_id: o.rollout_id, attempt_id: o.attempt_id };
  if (o.op === 'remove') return { op: 'remove', ...key, reviewer: o.reviewer, timestamp: o.timestamp };
  if (!isReviewVerdict(o.verdict)) return bad('verdict', '"agree", "disagree" or "unsure"', o.verdict);
  if (typeof o.note !== 'string') return bad('note', 'a string', o.note);
  return { op: 'put', ...key, verdict: o.verdict, note: o.note, reviewer: o.reviewer, timestamp: o.timestamp };
}

export function isReviewEntryError(v: ReviewLogEntry | ReviewEntryError): v is ReviewEntryError {
  return 'field' in v;
}

/** One line of the log (no newline), its fields in a fixed order. */
export function reviewLogLine(e: ReviewLogEntry): string {
  const head = { op: e.op, digest: e.digest, rollout_id: e.rollout_id, attempt_id: e.attempt_id };
  if (e.op === 'remove') return JSON.stringify({ ...head, reviewer: e.reviewer, timestamp: e.timestamp });
  return JSON.stringify({ ...head, verdict: e.verdict, note: e.note, reviewer: e.reviewer, timestamp: e.timestamp });
}

/** One line of the log read back, or null when it is not an entry (not JSON, or a bad field). */
export function readReviewLogLine(line: string): ReviewLogEntry | null {
  let value: unknown;
  try {
    value = parseJson(line);
  } catch {
    return null;
  }
  const entry = toReviewLogEntry(value);
  return isReviewEntryError(entry) ? null : entry;
}

/**
 * The reviews the entries leave, per digest: in log order, the last entry for a digest + rollout +
 * attempt wins, and a remove deletes. A review changed later moves to the end (as the JSONL import does).
 */
export function foldReviewLog(entries: Iterable<ReviewLogEntry>): Map<string, Map<ReviewKey, Review>> {
  const out = new Map<string, Map<ReviewKey, Review>>();
  for (const e of entries) {
    let of = out.get(e.digest);
    if (!of) {
      of = new Map();
      out.set(e.digest, of);
    }
    const key = reviewKey(e);
    of.delete(key);
    if (e.op === 'put') {
      const { op: _op, digest: _digest, ...review } = e;
      of.set(key, review);
    }
  }
  return out;
}

/** What `GET /api/reviews` answers: the log's entries in order, and how many of its lines were skipped. */
export interface ReviewLogPage {
  entries: ReviewLogEntry[];
  skipped: number;
}

/**
 * Reads a `GET /api/reviews` answer: null when it is not one (another server's page, an HTML fallback);
 * an entry that does not validate counts as skipped, as a bad line of the log does.
 */
export function parseReviewLogPage(text: string): ReviewLogPage | null {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { entries, skipped } = value as Record<string, unknown>;
  if (!Array.isArray(entries) || typeof skipped !== 'number' || !Number.isInteger(skipped) || skipped < 0) return null;
  const page: ReviewLogPage = { entries: [], skipped };
  for (const raw of entries) {
    const e = toReviewLogEntry(raw);
    if (isReviewEntryError(e)) page.skipped++;
    else page.entries.push(e);
  }
  return page;
}
