/** What follows a line's key: a bracket, a scalar, an empty container, or a whole array of numbers. */
type JsonValue =
  | { kind: 'open'; text: '{' | '[' }
  | { kind: 'close'; text: '}' | ']' }
  | { kind: 'empty'; text: '{}' | '[]' }
  | { kind: 'string' | 'number' | 'literal'; text: string }
  /** An array of numbers (nulls allowed): token ids, log-probs, masks. Kept on one line. */
  | { kind: 'numbers'; values: readonly (number | null)[] };

/** One line of pretty-printed JSON. `key` is already JSON-quoted. */
export interface JsonLine {
  depth: number;
  key: string | null;
  value: JsonValue;
  /** ',' between siblings, '' after the last. */
  comma: boolean;
}

function isNumberArray(v: readonly unknown[]): v is readonly (number | null)[] {
  let any = false;
  for (const x of v) {
    if (typeof x === 'number') any = true;
    else if (x !== null) return false;
  }
  return any;
}

function asArray(v: unknown): readonly unknown[] | null {
  if (Array.isArray(v)) return v;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>);
  return null;
}

/** A container still being written: its children are read one at a time (a huge record's steps are parsed when read). */
interface Open {
  count: number;
  child: (i: number) => [key: string | null, value: unknown];
  at: number;
  depth: number;
  close: '}' | ']';
  comma: boolean;
}

/** Lines of a value made as they are asked for: `read(n)` gives at least the first n (fewer at the end). */
export interface JsonLineReader {
  /** The lines made so far, at least `upTo` of them unless the value has fewer; the same array each time. */
  read(upTo: number): readonly JsonLine[];
  /** Whether every line is made. */
  readonly done: boolean;
}

/**
 * A value as JSON lines, indented like `JSON.stringify(v, null, 2)` except that arrays of numbers stay
 * on one line (a record is mostly token ids, and one id per line would make it unreadable), made as
 * they are read: a million-step record is some eleven million lines, and a view shows the first few.
 */
export function jsonLineReader(root: unknown): JsonLineReader {
  const out: JsonLine[] = [];
  // An explicit stack of open containers, not recursion: a record is depth-bounded when parsed
  // (MAX_JSON_DEPTH), but this view must not depend on that to stay up.
  const stack: Open[] = [];
  const visit = (v: unknown, depth: number, key: string | null, comma: boolean) => {
    const arr = asArray(v);
    if (arr) {
      if (arr.length === 0) out.push({ depth, key, value: { kind: 'empty', text: '[]' }, comma });
      else if (isNumberArray(arr)) out.push({ depth, key, value: { kind: 'numbers', values: arr }, comma });
      else {
        out.push({ depth, key, value: { kind: 'open', text: '[' }, comma: false });
        stack.push({ count: arr.length, child: (i) => [null, arr[i] === undefined ? null : arr[i]], at: 0, depth, close: ']', comma });
      }
      return;
    }
    if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined && typeof x !== 'function');
      if (entries.length === 0) out.push({ depth, key, value: { kind: 'empty', text: '{}' }, comma });
      else {
        out.push({ depth, key, value: { kind: 'open', text: '{' }, comma: false });
        const child = (i: number): [string, unknown] => {
          const [k, x] = entries[i] as [string, unknown];
          return [JSON.stringify(k), x];
        };
        stack.push({ count: entries.length, child, at: 0, depth, close: '}', comma });
      }
      return;
    }
    if (typeof v === 'string') out.push({ depth, key, value: { kind: 'string', text: JSON.stringify(v) }, comma });
    else if (typeof v === 'number') out.push({ depth, key, value: { kind: 'number', text: JSON.stringify(v) }, comma });
    else out.push({ depth, key, value: { kind: 'literal', text: v === undefined ? 'null' : String(v) }, comma });
  };
  visit(root, 0, null, false);
  return {
    read(upTo) {
      for (let top = stack[stack.length - 1]; top && out.length < upTo; top = stack[stack.length - 1]) {
        if (top.at === top.count) {
          out.push({ depth: top.depth, key: null, value: { kind: 'close', text: top.close }, comma: top.comma });
          stack.pop();
          continue;
        }
        const [key, child] = top.child(top.at++);
        visit(child, top.depth + 1, key, top.at < top.count);
      }
      return out;
    },
    get done() {
      return stack.length === 0;
    },
  };
}

/** Every line of a value at once. */
export function jsonLines(root: unknown): JsonLine[] {
  return jsonLineReader(root).read(Number.POSITIVE_INFINITY) as JsonLine[];
}

/** The numbers of an array as JSON text, from `from` to `to`. */
export function numbersText(values: readonly (number | null)[], from = 0, to = values.length): string {
  let s = '';
  for (let i = from; i < to; i++) s += (i > from ? ', ' : '') + JSON.stringify(values[i] ?? null);
  return s;
}

export const INDENT = '  ';

/** One line as text, whole. */
export function lineText(line: JsonLine): string {
  const v = line.value;
  const value = v.kind === 'numbers' ? `[${numbersText(v.values)}]` : v.text;
  return `${INDENT.repeat(line.depth)}${line.key === null ? '' : `${line.key}: `}${value}${line.comma ? ',' : ''}`;
}

/** The whole document as text, for the clipboard. */
export function jsonText(lines: readonly JsonLine[]): string {
  return lines.map(lineText).join('\n');
}
