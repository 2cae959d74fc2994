/*
 * A review queue as a file (docs/review-queue.md): written by `trajscope queue`, held in the run at
 * REVIEW_QUEUE_PATH, served by `trajscope view` (GET /api/queue) and opened by the page. It is read back
 * from disk or over HTTP, so every field is checked here, once, and an error names the field.
 */
import { shownValue } from '../json';

/** Where `trajscope queue RUN` writes the queue and `trajscope view RUN` finds it, relative to the run. */
export const REVIEW_QUEUE_PATH = '.trajscope/review-queue.json';

/** A grader verdict as a stratum: the three the format names, `none` for no verdict, `other` for any other word. */
export type Stratum = 'pass' | 'fail' | 'error' | 'none' | 'other';

/** Every stratum, in the order allocation breaks ties in and the queue file counts them. */
export const STRATA: readonly Stratum[] = ['pass', 'fail', 'error', 'none', 'other'];

/** The file's layout; a reader refuses a newer one rather than guess at it. */
export const REVIEW_QUEUE_VERSION = 1;

/** More than anyone reviews; it bounds what a page holds for one file. */
export const MAX_QUEUE_ITEMS = 100_000;

/** As the review store keeps a reviewer's name (state/reviews/reviewerStore.ts): longer would never match. */
const MAX_QUEUE_REVIEWER_LENGTH = 80;

export interface ReviewQueueItem {
  file: string;
  line: number;
  /** The `rollout=` key the queue was made with. */
  rollout: string;
  rollout_id: string;
  attempt_id: string | null;
  task_id: string;
  verdict: string | null;
  /** `disagreement`, `scanner:<rule ids>` or `stratum:<verdict>`. */
  reason: string;
  reviewers: string[];
}

export interface ReviewQueue {
  version: typeof REVIEW_QUEUE_VERSION;
  /** ISO 8601; null when the file does not say. */
  created: string | null;
  /** The sampling seed; null when the file does not say (a queue made by hand). */
  seed: number | null;
  overlap: number;
  /** Everyone the queue names, in the order given. */
  reviewers: string[];
  items: ReviewQueueItem[];
}

/** What is wrong with a queue file, naming the field (`items[3].line`). */
export class QueueFileError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

const fail = (field: string, must: string, got: unknown): never => {
  throw new QueueFileError(field, `must be ${must}, got ${shownValue(got)}`);
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(o: Record<string, unknown>, key: string, at: string, nonEmpty = true): string {
  const v = o[key];
  if (typeof v !== 'string' || (nonEmpty && v === '')) fail(`${at}${key}`, nonEmpty ? 'a non-empty string' : 'a string', v);
  return v as string;
}

function textOrNull(o: Record<string, unknown>, key: string, at: string): string | null {
  const v = o[key] ?? null;
  if (v !== null && typeof v !== 'string') fail(`${at}${key}`, 'a string or null', v);
  return v as string | null;
}

const REASON = new RegExp(`^(disagreement|scanner:[a-z0-9][a-z0-9-]*(,[a-z0-9][a-z0-9-]*)*|stratum:(${STRATA.join('|')}))$`);

/** A reviewer's name as the queue may hold it: the store's limit, and no control characters. */
export function reviewerNameProblem(name: string): string | null {
  if (name.trim() === '') return 'a name is empty';
  if (name !== name.trim()) return `"${name}" has spaces around it`;
  if (name.length > MAX_QUEUE_REVIEWER_LENGTH) return `"${name.slice(0, 30)}…" is longer than ${MAX_QUEUE_REVIEWER_LENGTH} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'a name has a control character';
  return null;
}

function reviewersOf(v: unknown): string[] {
  if (!Array.isArray(v) || v.length === 0) fail('reviewers', 'a non-empty array of names', v);
  const names = v as unknown[];
  names.forEach((n, i) => {
    if (typeof n !== 'string') fail(`reviewers[${i}]`, 'a string', n);
    const problem = reviewerNameProblem(n as string);
    if (problem) throw new QueueFileError(`reviewers[${i}]`, problem);
  });
  if (new Set(names).size !== names.length) throw new QueueFileError('reviewers', 'a name is given twice');
  return names as string[];
}

function itemOf(v: unknown, i: number, reviewers: ReadonlySet<string>): ReviewQueueItem {
  const at = `items[${i}].`;
  if (!isObject(v)) return fail(`items[${i}]`, 'an object', v);
  const line = v.line;
  if (typeof line !== 'number' || !Number.isSafeInteger(line) || line < 1) fail(`${at}line`, 'a whole number from 1', line);
  const reason = text(v, 'reason', at);
  if (!REASON.test(reason)) fail(`${at}reason`, '"disagreement", "scanner:<rule ids>" or "stratum:<verdict>"', reason);
  const who = v.reviewers;
  if (!Array.isArray(who) || who.length === 0) fail(`${at}reviewers`, 'a non-empty array of names', who);
  (who as unknown[]).forEach((n, j) => {
    if (typeof n !== 'string' || !reviewers.has(n)) fail(`${at}reviewers[${j}]`, 'a name in the queue’s reviewers', n);
  });
  if (new Set(who as string[]).size !== (who as string[]).length) throw new QueueFileError(`${at}reviewers`, 'a name is given twice');
  return {
    file: text(v, 'file', at),
    line: line as number,
    rollout: text(v, 'rollout', at),
    rollout_id: text(v, 'rollout_id', at),
    attempt_id: textOrNull(v, 'attempt_id', at),
    task_id: text(v, 'task_id', at, false),
    verdict: textOrNull(v, 'verdict', at),
    reason,
    reviewers: [...(who as string[])],
  };
}

/** A parsed queue file checked field by field; throws a QueueFileError naming the first bad field. */
export function readReviewQueue(value: unknown): ReviewQueue {
  if (!isObject(value)) return fail('queue', 'a JSON object', value);
  if (value.version !== REVIEW_QUEUE_VERSION) {
    const newer = typeof value.version === 'number' && value.version > REVIEW_QUEUE_VERSION;
    fail('version', `${REVIEW_QUEUE_VERSION}${newer ? ' (this file is newer than this Trajscope reads)' : ''}`, value.version);
  }
  const reviewers = reviewersOf(value.reviewers);
  const overlap = value.overlap ?? 1;
  if (typeof overlap !== 'number' || !Number.isSafeInteger(overlap) || overlap < 1 || overlap > reviewers.length) {
    fail('overlap', `a whole number from 1 to ${reviewers.length}`, overlap);
  }
  const seed = value.seed ?? null;
  if (seed !== null && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)) fail('seed', 'a whole number or null', seed);
  const created = textOrNull(value, 'created', '');
  if (!Array.isArray(value.items)) return fail('items', 'an array', value.items);
  if (value.items.length > MAX_QUEUE_ITEMS)
    throw new QueueFileError('items', `at most ${MAX_QUEUE_ITEMS} items, got ${value.items.length}`);
  const names = new Set(reviewers);
  const items = value.items.map((v, i) => itemOf(v, i, names));
  const keys = new Set<string>();
  items.forEach((item, i) => {
    if (keys.has(item.rollout)) throw new QueueFileError(`items[${i}].rollout`, `"${item.rollout}" is in the queue twice`);
    keys.add(item.rollout);
  });
  return { version: REVIEW_QUEUE_VERSION, created, seed: seed as number | null, overlap: overlap as number, reviewers, items };
}

/** A queue file's text read: not JSON, or a bad field, is a QueueFileError. */
export function parseReviewQueue(text: string): ReviewQueue {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new QueueFileError('queue', `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  return readReviewQueue(value);
}
