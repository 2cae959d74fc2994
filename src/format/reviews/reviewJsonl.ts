import { parseJson, shownValue } from '../json';
import { isReviewVerdict, type Review, reviewKey } from './review';

/*
 * Reviews travel as JSON Lines, one review per line with exactly the fields of `Review`. Import follows
 * the trajectory reader's rule (shared/trajectory-format.md §1): a bad line is reported with its 1-based
 * number and every other line still counts.
 */

/** One review per line, in the order given, each with its fields in a fixed order; ends with a newline. */
export function reviewsToJsonl(reviews: Iterable<Review>): string {
  let out = '';
  for (const r of reviews) {
    const line: Review = {
      rollout_id: r.rollout_id,
      attempt_id: r.attempt_id,
      verdict: r.verdict,
      note: r.note,
      reviewer: r.reviewer,
      timestamp: r.timestamp,
    };
    out += `${JSON.stringify(line)}\n`;
  }
  return out;
}

export interface ReviewLineError {
  /** 1-based. */
  line: number;
  message: string;
}

export interface ParsedReviews {
  /** Good lines with their 1-based numbers, in file order; a rollout reviewed on two lines keeps the later line. */
  entries: Array<{ line: number; review: Review }>;
  errors: ReviewLineError[];
  /** Non-blank lines read. */
  lines: number;
}

/** Validates one parsed line; returns the review or what is wrong with it. */
function toReview(v: unknown): Review | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return `expected a JSON object, got ${shownValue(v)}`;
  const o = v as Record<string, unknown>;
  if (typeof o.rollout_id !== 'string' || o.rollout_id === '')
    return `rollout_id must be a non-empty string, got ${shownValue(o.rollout_id)}`;
  const attempt = o.attempt_id ?? null;
  if (attempt !== null && typeof attempt !== 'string') return `attempt_id must be a string or null, got ${shownValue(attempt)}`;
  if (!isReviewVerdict(o.verdict)) return `verdict must be "agree", "disagree" or "unsure", got ${shownValue(o.verdict)}`;
  const note = o.note ?? '';
  if (typeof note !== 'string') return `note must be a string, got ${shownValue(note)}`;
  const reviewer = o.reviewer ?? '';
  if (typeof reviewer !== 'string') return `reviewer must be a string, got ${shownValue(reviewer)}`;
  if (typeof o.timestamp !== 'string' || Number.isNaN(Date.parse(o.timestamp))) {
    return `timestamp must be an ISO 8601 date, got ${shownValue(o.timestamp)}`;
  }
  return { rollout_id: o.rollout_id, attempt_id: attempt, verdict: o.verdict, note, reviewer, timestamp: o.timestamp };
}

/** Reads an exported reviews file. Blank lines are skipped; `\r\n` endings are accepted. */
export function parseReviewsJsonl(text: string): ParsedReviews {
  const byKey = new Map<string, { line: number; review: Review }>();
  const errors: ReviewLineError[] = [];
  let lines = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    lines++;
    let value: unknown;
    try {
      value = parseJson(line);
    } catch (e) {
      errors.push({ line: i + 1, message: `not valid JSON (${e instanceof Error ? e.message : String(e)})` });
      return;
    }
    const review = toReview(value);
    if (typeof review === 'string') errors.push({ line: i + 1, message: review });
    else {
      const key = reviewKey(review);
      byKey.delete(key);
      byKey.set(key, { line: i + 1, review });
    }
  });
  return { entries: [...byKey.values()], errors, lines };
}
