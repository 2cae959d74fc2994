/**
 * How deeply a line's JSON may nest (docs/adr/0010). JSON.parse itself is iterative, but much else is
 * not: the engine's structured clone (a worker posting a record: fails near 2,000 levels in V8),
 * JSON.stringify (near 4,000), zod, and any recursive walk. Bounding depth where text becomes a value
 * keeps every later walk bounded; a deeper line is one E_PARSE, and the other lines load. 256 is far
 * beyond any real record (serde_json's default is 128) and far below every engine limit.
 */
export const MAX_JSON_DEPTH = 256;

export class JsonTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`nested deeper than ${limit} levels (the limit for one value)`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * Whether a value nests deeper than `limit` (a scalar is depth 0, `{}` and `[]` depth 1). Iterative,
 * with an explicit stack: it must not itself overflow on the values it is there to refuse.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const v = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const k in v) {
        const x: unknown = (v as Record<string, unknown>)[k];
        if (typeof x === 'object' && x !== null) {
          values.push(x);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

/** JSON.parse, refusing a value nested deeper than `limit` (throws JsonTooDeepError; SyntaxError as JSON.parse). */
export function parseJson(text: string, limit = MAX_JSON_DEPTH): unknown {
  const value: unknown = JSON.parse(text);
  if (nestsDeeperThan(value, limit)) throw new JsonTooDeepError(limit);
  return value;
}

/**
 * What a bare `NaN`, `Infinity` or `-Infinity` is read as: Python's `json.dumps` writes them for float
 * nan and ±inf by default (`allow_nan=True`), JSON has no such numbers, and JSON.parse refuses the line.
 * They are read as these strings: the value is kept, and a field that must be a number (a reward, a
 * logprob) then fails the schema naming the field, instead of the whole line being "not JSON".
 */
export const NON_FINITE_WORDS: readonly string[] = ['NaN', 'Infinity', '-Infinity'];

/**
 * `parseJson` for a line or document of a trajectory file: also reads Python's non-finite numbers
 * (`NON_FINITE_WORDS`) as strings. Ordinary text costs nothing more: only text JSON.parse refused, and
 * that names one of them, is scanned and parsed again. When the text fails even then, the error is the
 * second parse's, which names what else is wrong.
 */
export function parseJsonText(text: string, limit = MAX_JSON_DEPTH): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const quoted = text.includes('NaN') || text.includes('Infinity') ? quoteNonFinite(text) : null;
    if (quoted === null) throw e;
    value = JSON.parse(quoted);
  }
  if (nestsDeeperThan(value, limit)) throw new JsonTooDeepError(limit);
  return value;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The text with every `NaN`, `Infinity` and `-Infinity` outside a string quoted (`"NaN"`), or null when
 * there is none. One pass: strings are skipped by searching for their closing quote.
 */
export function quoteNonFinite(text: string): string | null {
  const parts: string[] = [];
  let copied = 0;
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i + 1);
      continue;
    }
    let word: string | null = null;
    if (c === 0x4e /* N */ && text.startsWith('NaN', i)) word = 'NaN';
    else if (c === 0x49 /* I */ && text.startsWith('Infinity', i)) word = 'Infinity';
    else if (c === 0x2d /* - */ && text.startsWith('-Infinity', i)) word = '-Infinity';
    if (word === null) {
      i++;
      continue;
    }
    parts.push(text.slice(copied, i), `"${word}"`);
    i += word.length;
    copied = i;
  }
  if (parts.length === 0) return null;
  parts.push(text.slice(copied));
  return parts.join('');
}

/** The index after the closing quote of the string whose body starts at `from` (the text's end when unclosed). */
function stringEnd(text: string, from: number): number {
  for (let q = text.indexOf('"', from); q !== -1; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
  }
  return text.length;
}

type Frame = { items: readonly unknown[]; keys: readonly string[] | null; at: number };

/**
 * JSON text with object keys sorted, so equal values give equal text whatever their key order (sampling
 * configs compared across a group). Iterative: a hostile value cannot overflow the stack.
 */
export function stableStringify(root: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = (v: unknown) => {
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ items: v, keys: null, at: 0 });
    } else if (v && typeof v === 'object') {
      const keys = Object.keys(v).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      out.push('{');
      stack.push({ items: keys.map((k) => (v as Record<string, unknown>)[k]), keys, at: 0 });
    } else out.push(JSON.stringify(v) ?? 'undefined');
  };
  open(root);
  for (let top = stack[stack.length - 1]; top; top = stack[stack.length - 1]) {
    if (top.at === top.items.length) {
      out.push(top.keys ? '}' : ']');
      stack.pop();
      continue;
    }
    if (top.at > 0) out.push(',');
    if (top.keys) out.push(JSON.stringify(top.keys[top.at]), ':');
    open(top.items[top.at++]);
  }
  return out.join('');
}

/** A value as an error message names it: `nothing`, `null`, `an array`, `an object`, a string quoted (cut at 30), else as written. */
export function shownValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 30 ? `${v.slice(0, 30)}…` : v}"`;
  return typeof v === 'object' ? 'an object' : String(v);
}
