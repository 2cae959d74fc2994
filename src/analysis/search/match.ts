import { type Rollout, segmentText } from '../../format';
import { rowCounts } from '../findingGroups';
import { isKnownTermination, terminationInfo } from '../termination';
import type { RolloutSummary } from '../types';
import { type Clause, type CompareOp, nameMatcher, type Query, type Term, termRegex } from './query';

/*
 * Matching a query against one rollout (docs/adr/0016). A query's clauses split in two by what they need:
 * row clauses (termination, findings, reward, ids, group, failure mode) read the run list's summary, which the page
 * already has, so they filter at once; content clauses (text, regex, tool, status, policy, training step,
 * has:tokens/training/artifact) read the full record, and are what the scanner runs off the page's thread
 * or on the server. All clauses are ANDed, so the split is exact: a rollout matches when both halves hold.
 */

/** Where a hit was found. */
type HitField = 'prompt' | 'action' | 'observation' | 'generated' | 'context' | 'artifact';

export interface Hit {
  field: HitField;
  /** 1-based step (an action or observation, or the step a generation called); null when none. */
  step: number | null;
  /** 0-based segment of a generated or context hit. */
  segment: number | null;
  /** 0-based token of that segment's generated_tokens (generated) or input_tokens (context) where the match starts. */
  token: number | null;
  /** A window of the field's text around the match; newlines shown as spaces. */
  snippet: string;
  /** The match within `snippet` (start inclusive, end exclusive). */
  match: [number, number];
  /** The snippet starts / ends inside the field (an ellipsis belongs there). */
  cutStart: boolean;
  cutEnd: boolean;
}

export interface RecordMatch {
  /** Hits of the positive text, regex, tool and status clauses, counted up to HIT_COUNT_CAP. */
  count: number;
  /** The first hits: clause by clause, each in field order (prompt, segments, steps, artifact). */
  hits: Hit[];
}

/** Counting stops here per rollout: a word in every observation of a 100k-step rollout is "10,000+" hits. */
export const HIT_COUNT_CAP = 10_000;
const SNIPPET_BEFORE = 40;
const SNIPPET_AFTER = 80;

const ROW_HAS = new Set(['regression', 'finding', 'error', 'warning', 'reward', 'signal']);

/** A clause the run list's summary decides (the rest need the record). */
function isRowClause(c: Clause): boolean {
  const t = c.term;
  if (t.kind === 'name') return t.field !== 'tool' && t.field !== 'status' && t.field !== 'policy';
  if (t.kind === 'compare') return t.field === 'reward';
  if (t.kind === 'has') return ROW_HAS.has(t.what);
  return false;
}

export function contentClauses(q: Query): Clause[] {
  return q.clauses.filter((c) => !isRowClause(c));
}

function compare(v: number | null | undefined, op: CompareOp, x: number): boolean {
  if (typeof v !== 'number') return false;
  if (op === '=') return v === x;
  if (op === '>') return v > x;
  if (op === '>=') return v >= x;
  if (op === '<') return v < x;
  return v <= x;
}

function rowTermHolds(t: Term, row: RolloutSummary): boolean {
  if (t.kind === 'compare') return compare(row.reward, t.op, t.value);
  if (t.kind === 'has') {
    // A run index's row keeps counts, not the regressions themselves: counted as the list counts them.
    if (t.what === 'regression') return rowCounts(row).regressions > 0;
    if (t.what === 'finding') return row.findings.length > 0;
    if (t.what === 'error') return row.findings.some((f) => f.severity === 'error');
    if (t.what === 'warning') return row.findings.some((f) => f.severity === 'warning');
    if (t.what === 'reward') return row.reward !== null;
    return row.in_signal;
  }
  if (t.kind !== 'name') return true;
  const m = nameMatcher(t.value);
  if (t.field === 'term') return m(row.termination) || (!isKnownTermination(row.termination) && m(terminationInfo(row.termination).label));
  if (t.field === 'code') return row.findings.some((f) => m(f.code));
  if (t.field === 'group') return m(row.group_id);
  if (t.field === 'task') return m(row.task_id);
  if (t.field === 'mode') return m(row.failure?.name);
  return m(row.rollout_id) || (row.attempt_id !== null && m(`${row.rollout_id}#${row.attempt_id}`));
}

/** The row clauses hold for this summary (content clauses are ignored). */
export function matchRow(clauses: readonly Clause[], row: RolloutSummary): boolean {
  for (const c of clauses) if (isRowClause(c) && rowTermHolds(c.term, row) === c.negated) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------------
// Content: the record's text fields, walked once per clause.

interface Field {
  field: HitField;
  text: string;
  step: number | null;
  segment: number | null;
  /** Start offset of each token in `text`, when the text is token strings joined. */
  tokenStarts?: number[];
  /** Index of the first of those tokens in the segment's token array. */
  tokenBase: number;
}

function joinTokens(tokens: readonly string[]): { text: string; tokenStarts: number[] } {
  const tokenStarts = new Array<number>(tokens.length);
  let at = 0;
  for (let i = 0; i < tokens.length; i++) {
    tokenStarts[i] = at;
    at += (tokens[i] ?? '').length;
  }
  return { text: tokens.join(''), tokenStarts };
}

/** How many leading ids `a` and `b` share. */
function sharedPrefix(a: readonly number[], b: readonly number[], bExtra: readonly number[]): number {
  const n = Math.min(a.length, b.length + bExtra.length);
  let i = 0;
  while (i < n && a[i] === (i < b.length ? b[i] : bExtra[i - b.length])) i++;
  return i;
}

/**
 * Every text field of a record, in reading order. A context is searched only past what it shares with
 * the previous segment's context and generation (the rest was searched there already, as generated text
 * or an observation), and only where it has token strings: decoding ids here would need the 5 MB Qwen3
 * tokenizer in the scan, for text that the observations and generations already hold.
 */
/**
 * A record's searchable text in reading order: the task prompt, then each generation's new context and
 * generated text followed by the step it called (action, then observation), then steps no generation
 * names, then the grader's artifact. Hits are listed in this order, so they read down the rollout
 * (issue 31: every observation hit came after every generated one).
 */
function* fields(record: Rollout): Generator<Field> {
  if (record.task?.prompt) yield { field: 'prompt', text: record.task.prompt, step: null, segment: null, tokenBase: 0 };
  const steps = record.steps ?? [];
  const stepOf = new Map<string, number>();
  steps.forEach((s, i) => {
    if (!stepOf.has(s.tool_call_id)) stepOf.set(s.tool_call_id, i + 1);
  });
  /** Steps 1..done have been yielded. */
  let done = 0;
  function* stepsUpTo(last: number): Generator<Field> {
    for (; done < last; done++) {
      const s = steps[done];
      if (!s) continue;
      const args = s.args && Object.keys(s.args).length > 0 ? ` ${JSON.stringify(s.args)}` : '';
      yield { field: 'action', text: s.tool + args, step: done + 1, segment: null, tokenBase: 0 };
      if (s.observation?.text) yield { field: 'observation', text: s.observation.text, step: done + 1, segment: null, tokenBase: 0 };
    }
  }
  let prev: Rollout['segments'][number] | undefined;
  for (let j = 0; j < record.segments.length; j++) {
    const seg = record.segments[j];
    if (!seg) continue;
    const step = (seg.tool_call_id && stepOf.get(seg.tool_call_id)) || null;
    if (seg.input_tokens && seg.input_tokens.length === seg.input_ids.length) {
      const from = prev ? sharedPrefix(seg.input_ids, prev.input_ids, prev.generated_ids) : 0;
      if (from < seg.input_tokens.length)
        yield { field: 'context', step: null, segment: j, tokenBase: from, ...joinTokens(seg.input_tokens.slice(from)) };
    }
    if (seg.generated_tokens && seg.generated_tokens.length > 0) {
      yield { field: 'generated', step, segment: j, tokenBase: 0, ...joinTokens(seg.generated_tokens) };
    } else {
      const text = segmentText(seg);
      if (text) yield { field: 'generated', text, step, segment: j, tokenBase: 0 };
    }
    if (step !== null) yield* stepsUpTo(step);
    prev = seg;
  }
  yield* stepsUpTo(steps.length);
  const artifact = record.grading?.artifact;
  if (artifact) yield { field: 'artifact', text: artifact, step: null, segment: null, tokenBase: 0 };
}

/** The token whose text holds offset `at` (binary search over the start offsets). */
function tokenAt(starts: readonly number[], at: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function makeHit(f: Field, start: number, end: number): Hit {
  const from = Math.max(0, start - SNIPPET_BEFORE);
  const to = Math.min(f.text.length, Math.max(end, start + 1) + SNIPPET_AFTER);
  return {
    field: f.field,
    step: f.step,
    segment: f.segment,
    token: f.tokenStarts ? f.tokenBase + tokenAt(f.tokenStarts, start) : null,
    snippet: f.text.slice(from, to).replace(/[\r\n\t]/g, ' '),
    match: [start - from, Math.min(end, to) - from],
    cutStart: from > 0,
    cutEnd: to < f.text.length,
  };
}

/** Calls `onMatch(start, end)` for each non-empty match of `re` (global) in `text`; stops when it returns false. */
function eachMatch(re: RegExp, text: string, onMatch: (start: number, end: number) => boolean): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    if (!onMatch(m.index, m.index + m[0].length)) return;
  }
}

/** A content clause's hits (text, regex, tool, status) or, for the others, whether it holds. */
type Probe =
  | { kind: 'hits'; find: (record: Rollout, out: (f: Field, start: number, end: number) => boolean) => void }
  | { kind: 'holds'; holds: (record: Rollout) => boolean };

function probe(t: Term): Probe {
  if (t.kind === 'text' || t.kind === 'regex') {
    const re = termRegex(t);
    return {
      kind: 'hits',
      find: (record, out) => {
        let go = true;
        for (const f of fields(record)) {
          eachMatch(re, f.text, (s, e) => (go = out(f, s, e)));
          if (!go) return;
        }
      },
    };
  }
  if (t.kind === 'name' && (t.field === 'tool' || t.field === 'status')) {
    const m = nameMatcher(t.value);
    const byTool = t.field === 'tool';
    return {
      kind: 'hits',
      find: (record, out) => {
        const steps = record.steps ?? [];
        for (let i = 0; i < steps.length; i++) {
          const s = steps[i];
          if (!s) continue;
          const value = byTool ? s.tool : s.observation?.status;
          if (!m(value)) continue;
          const f: Field = byTool
            ? { field: 'action', text: s.tool + (s.args ? ` ${JSON.stringify(s.args)}` : ''), step: i + 1, segment: null, tokenBase: 0 }
            : { field: 'observation', text: `[${value}] ${s.observation?.text ?? ''}`, step: i + 1, segment: null, tokenBase: 0 };
          if (!out(f, byTool ? 0 : 1, byTool ? s.tool.length : 1 + (value?.length ?? 0))) return;
        }
      },
    };
  }
  return { kind: 'holds', holds: (record) => contentHolds(t, record) };
}

function contentHolds(t: Term, record: Rollout): boolean {
  if (t.kind === 'name') return nameMatcher(t.value)(record.policy_version);
  if (t.kind === 'compare') {
    const step = record.training_step;
    return compare(typeof step === 'number' ? step : null, t.op, t.value);
  }
  if (t.kind === 'has') {
    if (t.what === 'tokens') return record.segments.some((s) => (s.generated_tokens?.length ?? 0) > 0 || (s.input_tokens?.length ?? 0) > 0);
    if (t.what === 'training') return record.training !== undefined;
    if (t.what === 'artifact') return Boolean(record.grading?.artifact);
  }
  return true;
}

/** A query's content clauses, prepared once and run over many records. */
export interface ContentMatcher {
  /** No content clause: every record matches, and no record needs reading. */
  readonly empty: boolean;
  /** The hits of one record, or null when it does not match. */
  match(record: Rollout): RecordMatch | null;
}

export function contentMatcher(clauses: readonly Clause[], maxHits = 5): ContentMatcher {
  const prepared = clauses.filter((c) => !isRowClause(c)).map((c) => ({ negated: c.negated, probe: probe(c.term) }));
  return {
    empty: prepared.length === 0,
    match(record) {
      const hits: Hit[] = [];
      let count = 0;
      for (const { negated, probe: p } of prepared) {
        if (p.kind === 'holds') {
          if (p.holds(record) === negated) return null;
          continue;
        }
        let found = 0;
        p.find(record, (f, s, e) => {
          found++;
          if (negated) return false;
          if (hits.length < maxHits) hits.push(makeHit(f, s, e));
          count++;
          return count < HIT_COUNT_CAP;
        });
        if (found > 0 === negated) return null;
      }
      return { count, hits };
    },
  };
}
