import { isPlainValid } from './fastCheck';
import { type Rollout, rolloutSchema } from './schema';

/** A line that did not become a rollout. `line` is 1-based within `file`. */
export interface ParseError {
  file: string;
  line: number;
  code: 'E_PARSE' | 'E_SCHEMA';
  message: string;
}

/** A validated record and where it came from. */
export interface LoadedRollout {
  file: string;
  line: number;
  record: Rollout;
}

export type LineResult = { kind: 'rollout'; value: LoadedRollout } | { kind: 'error'; value: ParseError };

const NEWLINE = 0x0a;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Splits a byte stream into lines, chunk by chunk.
 *
 * It splits on bytes, not on decoded text: 0x0A never occurs inside a multi-byte UTF-8 sequence, so a
 * chunk boundary anywhere (even mid-character) is safe, and each line can be decoded strictly on its own —
 * invalid UTF-8 then spoils only its own line. Only the current partial line is buffered, never the file.
 */
export class LineSplitter {
  /** Lines seen so far, blank ones included (the last unterminated line counts once `end()` is called). */
  lines = 0;
  private pending: Uint8Array[] = [];

  /** Bytes of the line still being read (no newline yet): a live file's half-written last line. */
  get pendingBytes(): number {
    let n = 0;
    for (const p of this.pending) n += p.length;
    return n;
  }

  /** The bytes of the line still being read, or null when there is none: a view to read, not to keep. */
  tail(): Uint8Array | null {
    return this.pending.length > 0 ? concat(this.pending) : null;
  }

  /** Calls `onLine` with the bytes and 1-based number of every line the chunk completes. */
  push(chunk: Uint8Array, onLine: (bytes: Uint8Array, line: number) => void): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      this.pending.push(chunk.subarray(start, nl));
      this.emit(onLine);
      start = nl + 1;
    }
    // Copy: the caller may reuse the chunk's buffer (Node streams do).
    if (start < chunk.length) this.pending.push(chunk.slice(start));
  }

  /**
   * Like `push`, but hands over the chunk's complete lines as one run without splitting them (it only
   * counts newlines): the run's last part is a view of `chunk`, whose tail after the last newline is
   * copied first, so the caller may then give the chunk's buffer away.
   */
  pushRun(chunk: Uint8Array, onRun: (run: LineRun) => void): void {
    const last = chunk.lastIndexOf(NEWLINE);
    if (last === -1) {
      if (chunk.length > 0) this.pending.push(chunk.slice());
      return;
    }
    let count = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1 && nl <= last; nl = chunk.indexOf(NEWLINE, nl + 1)) count++;
    const run: LineRun = { parts: [...this.pending, chunk.subarray(0, last + 1)], firstLine: this.lines + 1, count };
    this.lines += count;
    this.pending = last + 1 < chunk.length ? [chunk.slice(last + 1)] : [];
    onRun(run);
  }

  /** The stream ended: an unterminated last line is a line too. */
  end(onLine: (bytes: Uint8Array, line: number) => void): void {
    if (this.pending.length > 0) this.emit(onLine);
  }

  private emit(onLine: (bytes: Uint8Array, line: number) => void): void {
    this.lines++;
    const bytes = concat(this.pending);
    this.pending = [];
    onLine(bytes, this.lines);
  }
}

/**
 * Consecutive whole lines, not yet split: `parts` joined are `count` lines, each ending in a newline (so
 * runs can be joined), and the first is line `firstLine` (1-based).
 */
export interface LineRun {
  parts: Uint8Array[];
  firstLine: number;
  count: number;
}

/** Calls `onLine` for each line of a run, in order, numbered from `firstLine`: the splitter's own walk. */
export function forEachLine(run: LineRun, onLine: (bytes: Uint8Array, line: number) => void): void {
  const splitter = new LineSplitter();
  splitter.lines = run.firstLine - 1;
  for (const part of run.parts) splitter.push(part, onLine);
  splitter.end(onLine);
}

/** Splits a byte stream into lines and parses each as a v1 record (see LineSplitter). */
export class JsonlParser {
  private readonly splitter = new LineSplitter();

  constructor(readonly file: string) {}

  get lines(): number {
    return this.splitter.lines;
  }

  get pendingBytes(): number {
    return this.splitter.pendingBytes;
  }

  push(chunk: Uint8Array): LineResult[] {
    const out: LineResult[] = [];
    this.splitter.push(chunk, (bytes, line) => this.parse(bytes, line, out));
    return out;
  }

  end(): LineResult[] {
    const out: LineResult[] = [];
    this.splitter.end((bytes, line) => this.parse(bytes, line, out));
    return out;
  }

  private parse(bytes: Uint8Array, line: number, out: LineResult[]): void {
    const result = parseLine(bytes, line, this.file);
    if (result) out.push(result);
  }
}

/** The parts joined into one array (the part itself when there is just one). */
export function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  let size = 0;
  for (const p of parts) size += p.length;
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/** Parses one line; null for a blank line. Never throws. */
export function parseLine(bytes: Uint8Array | string, line: number, file: string): LineResult | null {
  const error = (code: ParseError['code'], message: string): LineResult => ({
    kind: 'error',
    value: { file, line, code, message },
  });
  let text: string;
  try {
    text = typeof bytes === 'string' ? bytes : utf8.decode(bytes);
  } catch {
    return error('E_PARSE', 'line is not valid UTF-8');
  }
  if (line === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return error('E_PARSE', `not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return error('E_PARSE', `expected a JSON object, got ${Array.isArray(json) ? 'an array' : json === null ? 'null' : typeof json}`);
  }
  // Nearly every line is valid: take the fast check's yes, and let zod find and name what is wrong otherwise.
  if (isPlainValid(json)) return { kind: 'rollout', value: { file, line, record: json } };
  const parsed = rolloutSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${formatPath(i.path)}: ${/received undefined/.test(i.message) ? 'required field is missing' : i.message}`);
    const more = parsed.error.issues.length > 3 ? ` (+${parsed.error.issues.length - 3} more)` : '';
    return error('E_SCHEMA', issues.join('; ') + more);
  }
  return { kind: 'rollout', value: { file, line, record: parsed.data } };
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(record)';
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s === '' ? String(p) : `.${String(p)}`;
  return s;
}
