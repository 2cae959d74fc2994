/*
 * The search box's language (docs/adr/0016). A query is terms separated by spaces, all of which must hold
 * (AND by juxtaposition). There is no OR keyword: alternatives of text go in one regex (`/a|b/`), and a
 * range is two comparisons (`reward>0 reward<1`); one operator fewer keeps every query's meaning flat.
 *
 *   word  "quoted phrase"  /regex/flags      text, searched in every text field of a rollout
 *   tool:edit  status:timeout                 a step's tool name / observation status (`*` is a wildcard)
 *   term:infra_failure  code:E_TRAINING_MASK  termination / a finding code of the rollout
 *   group:g1  task:t-*  id:r-7  policy:v3     the rollout's group, task, rollout id, policy version
 *   mode:"finished (fail) · grader: *"        the failure signature (docs/failure-modes.md); a failure
 *                                             mode's template with each <*> as * matches its rollouts
 *   reward:0  reward>0.5  step>=100           reward / training step, with : = > >= < <=
 *   has:regression (and the other HAS_WORDS)  the rollout has such a thing
 *   -term                                     the rollout does not match the term
 *
 * Case: plain text and phrases ignore case unless they contain an uppercase letter ("smart case"); a regex
 * is taken as written (its own `i` flag); names after `tool:` and the like ignore case.
 */

export const TEXT_FIELDS = ['tool', 'status', 'term', 'code', 'group', 'task', 'id', 'policy', 'mode'] as const;
type NameField = (typeof TEXT_FIELDS)[number];
const NUMBER_FIELDS = ['reward', 'step'] as const;
type NumberField = (typeof NUMBER_FIELDS)[number];

/** What `has:` may ask about, each with the sentence the help popover shows. */
export const HAS_WORDS = {
  regression: 'a step undid an earlier one or broke a passing test',
  finding: 'any lint finding',
  error: 'an error finding',
  warning: 'a warning finding',
  reward: 'a recorded reward',
  tokens: 'token strings (generated_tokens or input_tokens)',
  training: 'a training record (the trainer’s sequence)',
  artifact: 'a grader artifact',
  signal: 'a termination that enters the policy signal',
} as const;
export type HasWord = keyof typeof HAS_WORDS;

export type CompareOp = '=' | '>' | '>=' | '<' | '<=';

export type Term =
  | { kind: 'text'; text: string }
  | { kind: 'regex'; source: string; flags: string }
  | { kind: 'name'; field: NameField; value: string }
  | { kind: 'compare'; field: NumberField; op: CompareOp; value: number }
  | { kind: 'has'; what: HasWord };

export interface Clause {
  negated: boolean;
  term: Term;
  /** Where the clause starts and ends in the query text (0-based, end exclusive). */
  start: number;
  end: number;
}

export interface Query {
  clauses: Clause[];
}

export class QueryError extends Error {
  constructor(
    message: string,
    /** 0-based offset of the bad term in the query. */
    readonly position: number,
  ) {
    super(message);
    this.name = 'QueryError';
  }
}

const REGEX_FLAGS = /^[imsu]*$/;
const FIELD_TERM = /^([a-z_]+)(>=|<=|:|=|>|<)/;

/** Parses a query; throws a QueryError naming the bad term and its position. The empty query has no clauses. */
export function parseQuery(text: string): Query {
  const clauses: Clause[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text.charAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let negated = false;
    if (text[i] === '-' && i + 1 < text.length && !/\s/.test(text.charAt(i + 1))) {
      negated = true;
      i++;
    }
    const { term, end } = readTerm(text, i, start);
    clauses.push({ negated, term, start, end });
    i = end;
  }
  return { clauses };
}

function readTerm(text: string, at: number, start: number): { term: Term; end: number } {
  const ch = text[at];
  if (ch === '"') {
    const { value, end } = readQuoted(text, at, start);
    if (value === '') throw new QueryError(`the phrase at ${start + 1} is empty`, start);
    return { term: { kind: 'text', text: value }, end };
  }
  if (ch === '/') return readRegex(text, at, start);
  const rest = text.slice(at);
  const field = FIELD_TERM.exec(rest);
  if (field?.[1] !== undefined && field[2] !== undefined) return readField(text, at, start, field[1], field[2]);
  const end = wordEnd(text, at);
  return { term: { kind: 'text', text: text.slice(at, end) }, end };
}

function wordEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && !/\s/.test(text.charAt(end))) end++;
  return end;
}

function readQuoted(text: string, at: number, start: number): { value: string; end: number } {
  let value = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '\\' && i + 1 < text.length) {
      value += text.charAt(++i);
    } else if (c === '"') {
      return { value, end: i + 1 };
    } else value += c;
  }
  throw new QueryError(`the phrase at ${start + 1} has no closing quote`, start);
}

function readRegex(text: string, at: number, start: number): { term: Term; end: number } {
  let source = '';
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '\\' && i + 1 < text.length) {
      source += c + text.charAt(++i);
      continue;
    }
    if (c !== '/') {
      source += c;
      continue;
    }
    const end = wordEnd(text, i + 1);
    const flags = text.slice(i + 1, end);
    if (!REGEX_FLAGS.test(flags)) throw new QueryError(`the regex at ${start + 1} has flags "${flags}"; allowed: i m s u`, start);
    if (source === '') throw new QueryError(`the regex at ${start + 1} is empty`, start);
    try {
      new RegExp(source, flags);
    } catch (e) {
      throw new QueryError(`the regex at ${start + 1} is not valid: ${e instanceof Error ? e.message : String(e)}`, start);
    }
    return { term: { kind: 'regex', source, flags: [...flags].sort().join('') }, end };
  }
  throw new QueryError(`the regex at ${start + 1} has no closing /`, start);
}

function readField(text: string, at: number, start: number, name: string, op: string): { term: Term; end: number } {
  const valueAt = at + name.length + op.length;
  const { value, end } =
    text[valueAt] === '"'
      ? readQuoted(text, valueAt, start)
      : { value: text.slice(valueAt, wordEnd(text, valueAt)), end: wordEnd(text, valueAt) };
  const where = `at ${start + 1}`;
  if (value === '') throw new QueryError(`"${name}${op}" ${where} has no value`, start);
  if ((NUMBER_FIELDS as readonly string[]).includes(name)) {
    const n = Number(value);
    if (!Number.isFinite(n) || !/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(value))
      throw new QueryError(`"${name}${op}${value}" ${where}: "${value}" is not a number`, start);
    return { term: { kind: 'compare', field: name as NumberField, op: op === ':' ? '=' : (op as CompareOp), value: n }, end };
  }
  if (op !== ':') throw new QueryError(`"${name}${op}" ${where}: only reward and step compare with ${op}; write ${name}:value`, start);
  if (name === 'has') {
    if (!(value in HAS_WORDS)) throw new QueryError(`"has:${value}" ${where}: has: takes ${Object.keys(HAS_WORDS).join(', ')}`, start);
    return { term: { kind: 'has', what: value as HasWord }, end };
  }
  if ((TEXT_FIELDS as readonly string[]).includes(name)) return { term: { kind: 'name', field: name as NameField, value }, end };
  throw new QueryError(
    `"${name}:" ${where} is not a term (terms: ${[...TEXT_FIELDS, ...NUMBER_FIELDS, 'has'].join(', ')}); put text with a colon in quotes`,
    start,
  );
}

// ---------------------------------------------------------------------------------------------------
// Printing: the canonical text of a query, which parses back to the same clauses.

function quote(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A bare word would be read back as this same text (not a field, a phrase, a regex or a negation). */
function bareIsSafe(s: string): boolean {
  return s !== '' && !/[\s"\\]/.test(s) && !/^[-"/]/.test(s) && !FIELD_TERM.test(s);
}

function printValue(s: string): string {
  return s !== '' && !/[\s"\\]/.test(s) && !s.startsWith('"') ? s : quote(s);
}

function printTerm(term: Term): string {
  switch (term.kind) {
    case 'text':
      return bareIsSafe(term.text) ? term.text : quote(term.text);
    case 'regex':
      return `/${term.source}/${term.flags}`;
    case 'name':
      return `${term.field}:${printValue(term.value)}`;
    case 'compare':
      return `${term.field}${term.op === '=' ? ':' : term.op}${String(term.value)}`;
    case 'has':
      return `has:${term.what}`;
  }
}

export function printQuery(query: Query): string {
  return query.clauses.map((c) => (c.negated ? '-' : '') + printTerm(c.term)).join(' ');
}

// ---------------------------------------------------------------------------------------------------
// Case and wildcards, shared by the matchers.

/** Smart case: a needle with an uppercase letter is matched as written, otherwise ignoring case. */
function textIsCaseSensitive(text: string): boolean {
  return text !== text.toLowerCase();
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The global regex a text or regex term searches with (`g` so a field yields every hit). */
export function termRegex(term: Extract<Term, { kind: 'text' | 'regex' }>): RegExp {
  if (term.kind === 'regex') return new RegExp(term.source, `${term.flags}g`);
  return new RegExp(escapeRegex(term.text), textIsCaseSensitive(term.text) ? 'g' : 'gi');
}

/** `edit` matches exactly `edit` (any case); `*` matches any run of characters (`str_replace*`). */
export function nameMatcher(pattern: string): (value: string | null | undefined) => boolean {
  const re = new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`, 'i');
  return (value) => typeof value === 'string' && re.test(value);
}

/**
 * The text a query looks for, as regexes to mark where a rollout opened from a hit shows it (issue 31: the
 * opened hit was not highlighted). Only its positive text and regex terms: a field term (`tool:edit`) or a
 * negated one names no text to mark. A query that does not parse marks nothing.
 */
export function markRegexes(text: string): RegExp[] {
  let query: Query;
  try {
    query = parseQuery(text);
  } catch {
    return [];
  }
  return query.clauses.flatMap((c) => (!c.negated && (c.term.kind === 'text' || c.term.kind === 'regex') ? [termRegex(c.term)] : []));
}
