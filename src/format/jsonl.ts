import { formatCount } from './counting';
import { isPlainValid, plainNestsDeeperThan } from './fastCheck';
import { JsonTooDeepError, MAX_JSON_DEPTH, NON_FINITE_WORDS, nestsDeeperThan, parseJsonText, quoteNonFinite } from './json';
import { type Rollout, v1Schema } from './schema';

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
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * A line's bytes as text, or null when they are not valid UTF-8. Chromium's fatal decoder is about 4 x
 * slower than its lenient one (34 against 8 ms for 64 MB of lines, in a worker): the lenient one reads every
 * line, and only text with a U+FFFD in it, where a bad byte would show, is decoded again strictly. A
 * one-byte string cannot hold U+FFFD, so for ASCII and Latin-1 text the test costs nothing.
 */
export function decodeLine(bytes: Uint8Array): string | null {
  const text = lenient.decode(bytes);
  if (!text.includes('\uFFFD')) return text;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The longest line read by default (docs/adr/0010; `lint --max-line-bytes` changes it). A longer line is
 * one E_PARSE and is skipped as it streams by, never held, so a gzip bomb or a multi-GB line cannot grow
 * memory without bound. 256 MiB: twice the largest real line seen (a 1,000,000-step rollout is 126 MB),
 * under V8's longest string (512 MiB, past which a line cannot even be decoded), and the same as the
 * limit for a multi-line JSON document (WHOLE_FILE_LIMIT).
 */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

/** Handed to `onLine` in place of a line's bytes when the line was longer than the limit (its bytes were dropped). */
export const OVERLONG_LINE: Uint8Array = new Uint8Array(0);

/** The error for a line longer than the limit, as `parseLine` reports every bad line. */
export function overlongLineError(line: number, file: string, limit: number): LineResult {
  const mib = limit >= 2 ** 20 ? `${+(limit / 2 ** 20).toFixed(1)} MiB` : `${formatCount(limit)} bytes`;
  return { kind: 'error', value: { file, line, code: 'E_PARSE', message: `line is longer than ${mib} (the line limit; skipped unread)` } };
}

/**
 * Splits a byte stream into lines, chunk by chunk.
 *
 * It splits on bytes, not on decoded text: 0x0A never occurs inside a multi-byte UTF-8 sequence, so a
 * chunk boundary anywhere (even mid-character) is safe, and each line can be decoded strictly on its own —
 * invalid UTF-8 then spoils only its own line. Only the current partial line is buffered, never the file,
 * and never more than `maxLineBytes` of it: a longer line is dropped as it arrives and reported as
 * OVERLONG_LINE once its newline comes.
 */
export class LineSplitter {
  /** Lines seen so far, blank ones included (the last unterminated line counts once `end()` is called). */
  lines = 0;
  private pending: Uint8Array[] = [];
  private pendingSize = 0;
  /** The current line passed the limit: its bytes are being dropped until its newline. */
  private skipping = false;

  constructor(readonly maxLineBytes: number = DEFAULT_MAX_LINE_BYTES) {}

  /** Bytes of the line still being read (no newline yet): a live file's half-written last line. */
  get pendingBytes(): number {
    return this.pendingSize;
  }

  /** The bytes of the line still being read, or null when there is none: a view to read, not to keep. */
  tail(): Uint8Array | null {
    return this.pending.length > 0 ? concat(this.pending) : null;
  }

  /** Calls `onLine` with the bytes and 1-based number of every line the chunk completes. */
  push(chunk: Uint8Array, onLine: (bytes: Uint8Array, line: number) => void): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      this.hold(chunk.subarray(start, nl), false);
      this.emit(onLine);
      start = nl + 1;
    }
    // Copy: the caller may reuse the chunk's buffer (Node streams do).
    if (start < chunk.length) this.hold(chunk.subarray(start), true);
  }

  /**
   * Like `push`, but hands over the chunk's complete lines as one run without splitting them (it only
   * counts newlines): the run's last part is a view of `chunk`, whose tail after the last newline is
   * copied first, so the caller may then give the chunk's buffer away. A chunk holding a line past the
   * limit (or ending one) is split by `push` instead, whose lines go to `onLine`.
   *
   * `owned`: the chunk is given away (nothing else reads or reuses its buffer), so nothing need be copied
   * to keep it: a chunk with no newline is held as it is, and of a chunk's lines and its tail the shorter
   * is copied, the other kept as a view (the run's buffers are then the taker's, the tail's the splitter's).
   * Through a worker's fetch, lines of ~116 KB come in chunks of ~64 KB: without this most of the file was
   * copied once more on the loader's thread.
   */
  pushRun(chunk: Uint8Array, onRun: (run: LineRun) => void, onLine: (bytes: Uint8Array, line: number) => void, owned = false): void {
    const last = chunk.lastIndexOf(NEWLINE);
    if (last === -1) {
      this.hold(chunk, !owned);
      return;
    }
    // The newlines are found once, here: the run carries where each line ends, so its taker (a lines
    // worker) cuts it without scanning its bytes again.
    const ends: number[] = [];
    const held = this.pendingSize;
    let from = -1 - held;
    let overlong = this.skipping;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1 && nl <= last; nl = chunk.indexOf(NEWLINE, nl + 1)) {
      if (nl - from - 1 > this.maxLineBytes) overlong = true;
      from = nl;
      ends.push(held + nl);
    }
    if (overlong) {
      this.push(chunk, onLine);
      return;
    }
    const count = ends.length;
    const head = chunk.subarray(0, last + 1);
    const tail = chunk.subarray(last + 1);
    // Both stay views of one buffer only when there is no tail; else one of them is copied.
    const keepTail = owned && tail.length > head.length;
    const run: LineRun = { parts: [...this.pending, keepTail ? head.slice() : head], firstLine: this.lines + 1, count, ends };
    this.lines += count;
    this.pending = [];
    this.pendingSize = 0;
    if (tail.length > 0) this.hold(tail, !keepTail);
    onRun(run);
  }

  /** The stream ended: an unterminated last line is a line too. */
  end(onLine: (bytes: Uint8Array, line: number) => void): void {
    if (this.pending.length > 0 || this.skipping) this.emit(onLine);
  }

  /** Adds bytes to the current line, or drops them (and what it held) once the line is past the limit. */
  private hold(part: Uint8Array, copy: boolean): void {
    if (this.skipping) return;
    if (this.pendingSize + part.length > this.maxLineBytes) {
      this.skipping = true;
      this.pending = [];
      this.pendingSize = 0;
      return;
    }
    if (part.length === 0) return;
    this.pending.push(copy ? part.slice() : part);
    this.pendingSize += part.length;
  }

  private emit(onLine: (bytes: Uint8Array, line: number) => void): void {
    this.lines++;
    const bytes = this.skipping ? OVERLONG_LINE : concat(this.pending);
    this.pending = [];
    this.pendingSize = 0;
    this.skipping = false;
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
  /**
   * Where each line's newline is, as an offset into the parts joined: `count` of them, ascending. The
   * splitter finds them in the one scan it makes (`pushRun`), so the run's taker never scans its bytes again.
   */
  ends: number[];
}

/**
 * Calls `onLine` for each line of a run, in order, numbered from `firstLine`, cut at its `ends`: each line
 * is a view of its part (a copy only for a line split between parts, as the splitter would join it), never
 * scanned for its newline again.
 */
export function forEachLine(run: LineRun, onLine: (bytes: Uint8Array, line: number) => void): void {
  const { parts, ends } = run;
  let p = 0;
  /** Offset, in the parts joined, of part `p`'s first byte. */
  let base = 0;
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] as number;
    while (p < parts.length && start >= base + (parts[p] as Uint8Array).length) base += (parts[p++] as Uint8Array).length;
    const part = parts[p] as Uint8Array;
    let bytes: Uint8Array;
    if (end < base + part.length) bytes = part.subarray(start - base, end - base);
    else {
      const pieces: Uint8Array[] = [];
      let q = p;
      let at = base;
      let from = start;
      while (q < parts.length && at <= end) {
        const piece = parts[q] as Uint8Array;
        const to = Math.min(end, at + piece.length);
        if (to > from) pieces.push(piece.subarray(from - at, to - at));
        at += piece.length;
        from = Math.max(from, at);
        q++;
      }
      bytes = concat(pieces);
    }
    onLine(bytes, run.firstLine + i);
    start = end + 1;
  }
}

/** Splits a byte stream into lines and parses each as a v1 record (see LineSplitter). */
export class JsonlParser {
  private readonly splitter: LineSplitter;

  constructor(
    readonly file: string,
    maxLineBytes = DEFAULT_MAX_LINE_BYTES,
  ) {
    this.splitter = new LineSplitter(maxLineBytes);
  }

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
    const result =
      bytes === OVERLONG_LINE ? overlongLineError(line, this.file, this.splitter.maxLineBytes) : parseLine(bytes, line, this.file);
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
  let text = typeof bytes === 'string' ? bytes : decodeLine(bytes);
  if (text === null) return error('E_PARSE', 'line is not valid UTF-8');
  // A byte-order mark opens any line, not only the first: files joined with `cat` carry one per part.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    // A v1 line keeps the contract (trajectory-format.md §1): NaN / Infinity make it a parse error, said as such.
    // Other tools' lines are read past them (lineParser, json.ts parseJsonText) and name the field instead.
    if (quoteNonFinite(text) !== null && isJsonOnceQuoted(text))
      return error('E_PARSE', 'NaN / Infinity are not JSON: v1 numbers are finite (trajectory-format.md §1)');
    return error('E_PARSE', `not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Depth is bounded before anything recursive sees the value (json.ts). A record the fast check takes is
  // walked without its token arrays, which it has just proved flat; anything else is walked whole.
  const tooDeep = () => error('E_PARSE', new JsonTooDeepError(MAX_JSON_DEPTH).message);
  if (isPlainValid(json))
    return plainNestsDeeperThan(json, MAX_JSON_DEPTH) ? tooDeep() : { kind: 'rollout', value: { file, line, record: json } };
  if (nestsDeeperThan(json, MAX_JSON_DEPTH)) return tooDeep();
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return error('E_PARSE', `expected a JSON object, got ${Array.isArray(json) ? 'an array' : json === null ? 'null' : typeof json}`);
  }
  return checkRecord(json, line, file);
}

/** Whether the text parses once its NaN / Infinity are quoted: they, not something else, broke it. */
function isJsonOnceQuoted(text: string): boolean {
  try {
    parseJsonText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A JSON object checked against the v1 schema: the record, or one E_SCHEMA naming the first fields wrong.
 * Nearly every record is valid: the fast check's yes is taken, and zod finds and names what is wrong otherwise.
 * Also what a converter's record goes through (convertValue.ts), with no text in between.
 */
export function checkRecord(json: object, line: number, file: string): LineResult {
  if (isPlainValid(json)) return { kind: 'rollout', value: { file, line, record: json } };
  const parsed = v1Schema().rollout.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) => `${formatPath(i.path)}: ${issueMessage(i, json)}`);
    const more = parsed.error.issues.length > 3 ? ` (+${parsed.error.issues.length - 3} more)` : '';
    return { kind: 'error', value: { file, line, code: 'E_SCHEMA', message: issues.join('; ') + more } };
  }
  return { kind: 'rollout', value: { file, line, record: parsed.data } };
}

function issueMessage(issue: { path: readonly PropertyKey[]; message: string }, json: unknown): string {
  if (/received undefined/.test(issue.message)) return 'required field is missing';
  // A Python NaN or ±Infinity (read as a string, json.ts) where v1 wants a number: say so, not "got string".
  const value = valueAt(json, issue.path);
  if (typeof value === 'string' && NON_FINITE_WORDS.includes(value))
    return `${value} is not a number JSON can carry (v1 numbers are finite)`;
  return issue.message;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(record)';
  let s = '';
  for (const p of path) s += typeof p === 'number' ? `[${p}]` : s === '' ? String(p) : `.${String(p)}`;
  return s;
}
