import { plural } from '../counting';
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJsonText } from '../json';
import {
  concat,
  DEFAULT_MAX_LINE_BYTES,
  decodeLine,
  type LineResult,
  type LineRun,
  LineSplitter,
  OVERLONG_LINE,
  overlongLineError,
  parseLine,
} from '../jsonl';
import { convertValue } from './convertValue';
import { describeValue, detectByContent, detectByName, isMessageArray, knownFormats } from './detect';
import { FORMAT_INFO } from './formatInfo';
import { eventsOfLine } from './openHands';
import { spansOfLine } from './otelGenai';
import { isRecord, type Json } from './read';
import { sniffingParser } from './sniffParser';
import type { FormatId } from './types';
import { type ParseOptions, parseWholeFile, type WholeFileResult } from './wholeFile';

/** The interface of JsonlParser, so a loader can swap one for the other. */
export interface LineParser {
  /** Lines seen so far, blank ones included (the last unterminated line counts once `end()` is called). */
  readonly lines: number;
  /** The format being read: null until the first JSON object (for a multi-line JSON document, until it is complete). */
  readonly format: FormatId | null;
  /** Bytes read but not yet turned into results: the partial last line, plus a multi-line document not yet complete. */
  readonly pendingBytes: number;
  /**
   * When no line of the file is of a format Trajscope reads (and none was forced): one line saying what
   * the file looks like and which formats are known; its lines' errors are then not reported one by one
   * (it is not a broken v1 file, it is another kind of file). Otherwise null. Before `end()` it says so
   * far (a followed file may still turn out to be v1 once a record arrives); after, it is final.
   */
  readonly unsupported: string | null;
  /**
   * For a followed (live) file at its current end: reads an unterminated last line now if it is already
   * a whole JSON object or array (no later bytes can change it; a newline arriving next is that line's),
   * as `end()` would; a partial line stays pending, since a writer may be half-way through it.
   */
  completeTail(): LineResult[];
  push(chunk: Uint8Array): LineResult[];
  end(): LineResult[];
}

export interface LineParserOptions extends ParseOptions {
  /**
   * Takes over the lines of a file known to be v1, in runs, instead of parsing them here. Such lines are
   * parsed by `parseLine` alone, one by one (see `forEachLine`), so a loader can parse them elsewhere (in
   * parallel workers). Once a file is known to be v1 it stays v1, so every result a `push` returns comes
   * before the lines it hands over. A run's parts are the parser's own copies, except the last part of a
   * run from `push`, which is a view of the pushed chunk.
   */
  onV1Lines?: (run: LineRun) => void;
  /**
   * Every chunk pushed is given away: nothing else reads or reuses its buffer (a loader's own copy, or a
   * stream reader's chunk). The runs handed to `onV1Lines` may then hold views of it rather than copies
   * (LineSplitter.pushRun).
   */
  ownsChunks?: boolean;
  /** The longest line read (DEFAULT_MAX_LINE_BYTES); a longer one is one E_PARSE, dropped as it streams by. */
  maxLineBytes?: number;
  /**
   * The line number of the first line pushed (default 1): a run's rollout read by its span is that
   * line of its file, and the ids an adapter makes from where a record is (`file:7/turns[0]`) must
   * be the ones the whole file's read made.
   */
  firstLine?: number;
  /**
   * The bytes are a later part of a file whose first line was v1 (a run index splits a large file between
   * jobs, at line starts): every line is read as the whole file's read reads it once v1 is known, by
   * `parseLine` alone, so a part gives the same results as that stretch of the whole file.
   */
  continuesV1?: boolean;
}

/**
 * A JSON document that spans lines (pretty-printed `.traj`, an rLLM episode file) can only be parsed
 * whole, so it is buffered until it closes. These files are small; past this size the buffer stops growing.
 */
const WHOLE_FILE_LIMIT = 256 * 1024 * 1024;

const NEWLINE = 0x0a;

/**
 * Errors of lines read before any line was recognised are held back (a file of no known format reports
 * one line, not one error per line); past this many, the rest are only counted.
 */
const HELD_ERRORS_LIMIT = 10_000;

/**
 * The one entry point for reading trajectories in any supported format, chunk by chunk (docs/adr/0004).
 * The first line holding a JSON object decides the format (`options.from` overrides); v1 lines then go
 * through `parseLine` unchanged and other formats through their adapter, line by line. A first line that
 * opens a multi-line JSON document switches to reading the file whole. One bad line never hides another.
 * A file whose first bytes are a zip's is an Inspect `.eval` log, streamed entry by entry (sniffParser.ts).
 */
export function createLineParser(file: string, options: LineParserOptions = {}): LineParser {
  return sniffingParser(file, options, () => new StreamingParser(file, options));
}

class StreamingParser implements LineParser {
  format: FormatId | null;
  private readonly splitter: LineSplitter;
  private mode: 'lines' | 'whole' | 'skip' = 'lines';
  private sawContent = false;
  private wholeTried = false;
  /** The last line was read by `completeTail` before its newline came: that newline is not a blank line. */
  private owesNewline = false;
  private whole: WholeDocument | null = null;
  /** A format was forced (`from`, or a mapping): every line is read as that format. */
  private readonly forced: FormatId | null;
  /** Some line was of a known format (or a format was forced): errors are reported as they come. */
  private recognised: boolean;
  private held: LineResult[] = [];
  private heldOver = 0;
  /** What the file's first unrecognised content looked like, for `unsupported`. */
  private firstLook: string | null = null;
  private ended: { unsupported: string | null } | null = null;
  /** Per gathered format (GATHERED), the values its lines added, from the first such line on. */
  private readonly gathered = new Map<FormatId, { line: number; items: Json[] }>();

  constructor(
    readonly file: string,
    private readonly options: LineParserOptions,
  ) {
    this.forced = options.mapping ? 'mapped' : options.from && options.from !== 'auto' ? options.from : null;
    this.format = this.forced;
    this.recognised = this.forced !== null;
    if (options.continuesV1 && this.forced === null) {
      this.format = 'v1';
      this.sawContent = true;
      this.recognised = true;
    }
    this.splitter = new LineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
    this.splitter.lines = (options.firstLine ?? 1) - 1;
  }

  get lines(): number {
    return this.splitter.lines;
  }

  get pendingBytes(): number {
    return (this.whole?.bytes ?? 0) + this.splitter.pendingBytes;
  }

  completeTail(): LineResult[] {
    const tail = this.mode === 'lines' ? this.splitter.tail() : null;
    if (!tail || !isWholeJson(tail)) return [];
    // A fresh newline: a run handed over ends in a view of the pushed chunk, which its taker may keep.
    const out = this.push(new Uint8Array([NEWLINE]));
    this.owesNewline = true;
    return out;
  }

  push(chunk: Uint8Array): LineResult[] {
    if (this.owesNewline && chunk.length > 0) {
      // The newline owed may come as CRLF, and its CR and LF in separate writes: a lone CR still owes the LF.
      if (chunk.length === 1 && chunk[0] === CR) return [];
      this.owesNewline = false;
      chunk = chunk.subarray(chunk[0] === NEWLINE ? 1 : chunk[0] === CR && chunk[1] === NEWLINE ? 2 : 0);
    }
    const onRun = this.options.onV1Lines;
    const out: LineResult[] = [];
    if (onRun && this.steadyV1()) {
      this.splitter.pushRun(
        chunk,
        onRun,
        (bytes, line) => {
          out.push(...this.handle(bytes, line));
        },
        this.options.ownsChunks === true,
      );
      return out;
    }
    this.splitter.push(chunk, (bytes, line) => {
      out.push(...this.handle(bytes, line));
    });
    return out;
  }

  end(): LineResult[] {
    const out: LineResult[] = [];
    this.splitter.end((bytes, line) => {
      out.push(...this.handle(bytes, line));
    });
    if (this.mode === 'whole') out.push(...this.finishWhole());
    for (const [format, { line, items }] of this.gathered) {
      const ctx = { file: this.file, line, metadata: this.options.metadata, mapping: this.options.mapping };
      out.push(...convertValue(format, { [FORMAT_INFO[format].wholeArray ?? 'items']: items }, ctx));
    }
    this.gathered.clear();
    // Not a broken v1 file: another kind of file, said in one line (trajectory-format.md §8, lint exit 2).
    this.ended = { unsupported: this.unsupportedSoFar() };
    this.held = [];
    this.heldOver = 0;
    return out;
  }

  get unsupported(): string | null {
    return this.ended ? this.ended.unsupported : this.unsupportedSoFar();
  }

  private unsupportedSoFar(): string | null {
    if (this.recognised || (this.held.length === 0 && this.heldOver === 0)) return null;
    const n = this.splitter.lines;
    return `${this.firstLook ?? 'no JSON object'} (${plural(n, 'line')}): not a format Trajscope reads. Known formats: ${knownFormats()}; any other JSON can be read with a field mapping (--map, docs/formats.md)`;
  }

  /** A line of no known format: its error waits until some line is recognised (or the file ends unrecognised). */
  private unrecognised(result: LineResult | null, look: string): LineResult[] {
    if (result === null) return [];
    if (this.recognised) return [result];
    this.firstLook ??= look;
    if (this.held.length < HELD_ERRORS_LIMIT) this.held.push(result);
    else this.heldOver++;
    return [];
  }

  /** Some line is of a known format: the errors held so far are this file's own, reported in line order. */
  private recognise(): LineResult[] {
    if (this.recognised) return [];
    this.recognised = true;
    const held = this.held;
    this.held = [];
    if (this.heldOver > 0) {
      const first = held[0]?.value.line ?? 1;
      held.push({
        kind: 'error',
        value: { file: this.file, line: first, code: 'E_PARSE', message: `${this.heldOver} more lines before the first record failed too` },
      });
      this.heldOver = 0;
    }
    return held;
  }

  /** Once a file is known to be v1 its lines take exactly JsonlParser's path: parsed once, by parseLine. */
  private steadyV1(): boolean {
    return this.mode === 'lines' && this.sawContent && this.format === 'v1';
  }

  private handle(bytes: Uint8Array, line: number): LineResult[] {
    if (this.mode === 'skip') return [];
    if (bytes === OVERLONG_LINE) return [overlongLineError(line, this.file, this.splitter.maxLineBytes)];
    if (this.mode === 'whole') return this.buffer(bytes);
    if (this.steadyV1()) {
      const onRun = this.options.onV1Lines;
      if (!onRun) return one(parseLine(bytes, line, this.file));
      // A view of the chunk, which the caller may reuse: copied, with the newline a run's lines end in.
      const copy = new Uint8Array(bytes.length + 1);
      copy.set(bytes);
      copy[bytes.length] = NEWLINE;
      onRun({ parts: [copy], firstLine: line, count: 1, ends: [bytes.length] });
      return [];
    }
    // A file read as v1 by choice (`from: 'v1'`; a run index's v1 rows, read one range at a time): a line
    // that is a record is parsed once, by parseLine, from the first line on, not first by readJson to find
    // its format (a second JSON.parse and a walk of every id; ~5 ms of a rollout of the bench's run).
    // Anything else goes the general way, which reports it as before.
    if (this.forced === 'v1' && this.mode === 'lines') {
      const result = parseLine(bytes, line, this.file);
      if (result?.kind === 'rollout') {
        this.sawContent = true;
        return [result];
      }
    }
    const read = readJson(bytes);
    if (read === 'blank') return [];
    if (read === NOT_JSON && !this.sawContent && !this.wholeTried) {
      const text = decodeOrNull(bytes)?.trim() ?? '';
      if (opensDocument(text, this.file)) {
        this.mode = 'whole';
        this.whole = { start: line, lines: [], bytes: 0, strict: text === '{' || text === '[' };
        return this.buffer(bytes);
      }
    }
    this.sawContent = true;
    if (typeof read === 'string') return this.unrecognised(parseLine(bytes, line, this.file), unreadLook(read, bytes, line));
    const format = this.lineFormat(read.value);
    if (format === null) return this.unrecognised(parseLine(bytes, line, this.file), describeValue(read.value));
    return [...this.recognise(), ...this.convertParsed(format, bytes, read.value, line)];
  }

  /**
   * The format one line is read as. Each line's own content decides first, so a first line of another
   * format never turns the valid lines after it into errors (issue 18); a line that matches no rule is
   * read as the file's format (so its error names that format's fields), else as the file name suggests.
   * Null: nothing known fits (the line is reported as v1 would report it, once the file is known).
   */
  private lineFormat(value: unknown): FormatId | null {
    if (this.forced) return this.forced;
    const hasObject = isRecord(value) || (Array.isArray(value) && value.some(isRecord));
    const own = hasObject ? detectByContent([value]) : null;
    if (own !== null) {
      this.format ??= own;
      return own;
    }
    if (this.format !== null) return this.format;
    if (!hasObject) return null;
    const byName = detectByName(this.file);
    if (byName !== null) this.format = byName;
    return byName;
  }

  private convertParsed(format: FormatId, bytes: Uint8Array, value: unknown, line: number): LineResult[] {
    if (format === 'v1') return one(parseLine(bytes, line, this.file));
    const ctx = { file: this.file, line, metadata: this.options.metadata, mapping: this.options.mapping };
    // A bare array of chat messages is one conversation (older mini-swe-agent); another array of source
    // records (e.g. several episodes) converts each of them.
    if (format === 'mini-swe-agent' && isMessageArray(value)) return convertValue(format, { messages: value }, ctx);
    // A format whose whole array is one value: an array on one line is that value, as in a whole file.
    const wrap = FORMAT_INFO[format].wholeArray;
    if (wrap && Array.isArray(value)) return convertValue(format, { [wrap]: value }, ctx);
    // A value spread over lines (a trace's spans, a conversation's events): gathered, read as one list at the end.
    const items = isRecord(value) ? GATHERED[format]?.(value) : null;
    if (items) {
      const gathered = this.gathered.get(format) ?? { line, items: [] };
      this.gathered.set(format, gathered);
      for (const item of items) gathered.items.push(item);
      return [];
    }
    const values = Array.isArray(value) && value.every(isRecord) ? value : [value];
    return values.flatMap((v) => convertValue(format, v, ctx));
  }

  private buffer(bytes: Uint8Array): LineResult[] {
    const whole = this.whole;
    if (!whole) return [];
    whole.lines.push(bytes.slice());
    whole.bytes += bytes.length + 1;
    // A closing bracket alone at column 0 can only end a pretty-printed top-level document: try it now,
    // so a followed (live) file shows the document without waiting for end().
    if (closesDocument(bytes)) {
      const done = this.parseWhole(whole);
      if (done !== null && (done.format !== null || done.unsupported !== null)) return this.completeWhole(done);
    }
    const limit = this.options.wholeFileLimit ?? WHOLE_FILE_LIMIT;
    if (whole.bytes <= limit) return [];
    if (!whole.strict || holdsRecordLines(whole)) return this.replay();
    this.mode = 'skip';
    this.whole = null;
    const message = `a JSON document spanning several lines is read whole, up to ${Math.round(limit / 2 ** 20)} MiB; this one is larger`;
    return [{ kind: 'error', value: { file: this.file, line: whole.start, code: 'E_PARSE', message } }];
  }

  /** Not a JSON document after all (a JSONL file with a broken first line): read the buffered lines as lines. */
  private replay(): LineResult[] {
    const whole = this.whole;
    this.mode = 'lines';
    this.whole = null;
    this.wholeTried = true;
    return whole ? whole.lines.flatMap((bytes, i) => this.handle(bytes, whole.start + i)) : [];
  }

  private parseWhole(whole: WholeDocument): WholeFileResult | null {
    const parts: Uint8Array[] = [];
    for (const l of whole.lines) parts.push(l, NEWLINE_BYTES);
    const text = decodeOrNull(concat(parts));
    // Lines before the document keep their count, so every record keeps its true line.
    return text === null ? null : parseWholeFile('\n'.repeat(whole.start - 1) + text, this.file, this.options);
  }

  /** A document is done: later lines are read afresh (another document may follow, as in a stream of them). */
  private completeWhole(parsed: WholeFileResult): LineResult[] {
    this.mode = 'lines';
    this.whole = null;
    this.sawContent = false;
    if (parsed.unsupported !== null) {
      this.firstLook ??= parsed.unsupported;
      if (!this.recognised) this.heldOver++;
      return [];
    }
    if (parsed.format !== null) this.format = parsed.format;
    return [...this.recognise(), ...parsed.results];
  }

  private finishWhole(): LineResult[] {
    const whole = this.whole;
    if (!whole) return [];
    const parsed = this.parseWhole(whole);
    // Not strict means the first line was not a lone bracket: a file that then fails as a whole was JSONL.
    // A lone bracket followed by lines that are records on their own was a JSONL file with a broken first
    // line: that line is one E_PARSE and the others load.
    const failed = parsed === null || (parsed.format === null && parsed.unsupported === null);
    // A lone bracket whose later lines are not shaped like a pretty-printed document (indented, or a
    // closing bracket) was a broken first line of a JSONL file: each later line is its own line (issue 18).
    if (failed && (!whole.strict || holdsRecordLines(whole) || !prettyPrinted(whole))) return this.replay();
    if (parsed === null) {
      this.mode = 'lines';
      this.whole = null;
      const message = 'the JSON document is not valid UTF-8';
      return [{ kind: 'error', value: { file: this.file, line: whole.start, code: 'E_PARSE', message } }];
    }
    return this.completeWhole(parsed);
  }
}

/**
 * The formats one of whose values spreads over a file's lines (docs/formats.md, "How a file is read"):
 * what a line adds to the file's list, or null for a line that is a whole value of its own, converted at
 * once. The list is converted once, when the file ends, under the format's `wholeArray` key (formatInfo.ts),
 * as a whole file's array is: a trace's spans (`{spans}`), a conversation's events (`{events}`).
 */
const GATHERED: Partial<Record<FormatId, (value: Json) => Json[] | null>> = {
  'otel-genai': spansOfLine,
  'openhands-events': eventsOfLine,
};

const NEWLINE_BYTES = new Uint8Array([NEWLINE]);
const CR = 0x0d;

/** A line that is a whole JSON object or array: a number or a literal could still grow (`1` → `12`). */
function isWholeJson(bytes: Uint8Array): boolean {
  const read = readJson(bytes);
  return typeof read === 'object' && typeof read.value === 'object' && read.value !== null;
}

/** A multi-line JSON document being buffered: where it started and its lines so far. */
interface WholeDocument {
  start: number;
  lines: Uint8Array[];
  bytes: number;
  /** The first line was a lone bracket: surely a document, so a failure is one error, not a JSONL replay. */
  strict: boolean;
}

/**
 * Whether some buffered line is, on its own, a record of a format the content shows: then the lines are
 * JSON Lines, not a broken pretty-printed document (whose lines are fragments that are not records).
 */
function holdsRecordLines(whole: WholeDocument): boolean {
  return whole.lines.some((bytes) => {
    const read = readJson(bytes);
    return typeof read === 'object' && isRecord(read.value) && detectByContent([read.value]) !== null;
  });
}

/** Every line after the first is indented, blank, or a closing bracket: how JSON pretty-printers write. */
function prettyPrinted(whole: WholeDocument): boolean {
  return whole.lines.slice(1).every((bytes) => {
    const first = bytes[0];
    return first === undefined || first === 0x20 || first === 0x09 || first === 0x0d || first === 0x7d || first === 0x5d;
  });
}

function closesDocument(bytes: Uint8Array): boolean {
  const n = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  return n === 1 && (bytes[0] === 0x7d || bytes[0] === 0x5d);
}

/** A pretty-printed JSON document starts with a lone bracket; a `.json`/`.traj` file may also start `{"...`. */
function opensDocument(firstLine: string, file: string): boolean {
  return firstLine === '{' || firstLine.startsWith('[') || (/\.(json|traj)$/i.test(file) && firstLine.startsWith('{'));
}

/** The text of a line (or document), without the byte-order mark any line may start with; null when not UTF-8. */
function decodeOrNull(bytes: Uint8Array): string | null {
  const text = decodeLine(bytes);
  return text !== null && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

const NOT_JSON = 'not JSON';
const NOT_UTF8 = 'not UTF-8';
const TOO_DEEP = 'too deep';
type Unread = typeof NOT_JSON | typeof NOT_UTF8 | typeof TOO_DEEP;

/**
 * The line's JSON value (read as `parseLine` reads it: Python's NaN and ±Infinity too), or why there is
 * none; the exact error is left to `parseLine`, which fails the same way.
 */
function readJson(bytes: Uint8Array): { value: unknown } | 'blank' | Unread {
  const text = decodeOrNull(bytes);
  if (text === null) return NOT_UTF8;
  if (text.trim() === '') return 'blank';
  try {
    return { value: parseJsonText(text) };
  } catch (e) {
    return e instanceof JsonTooDeepError ? TOO_DEEP : NOT_JSON;
  }
}

/** What an unread line looks like, for `unsupported`: only a line that is not JSON is called so. */
function unreadLook(why: Unread, bytes: Uint8Array, line: number): string {
  if (why === NOT_UTF8) return `not UTF-8 text (line ${line})`;
  if (why === TOO_DEEP) return `JSON nested deeper than ${MAX_JSON_DEPTH} levels, the limit (line ${line})`;
  return `not JSON (line ${line} starts "${(decodeOrNull(bytes)?.trim() ?? '').slice(0, 30)}")`;
}

function one(result: LineResult | null): LineResult[] {
  return result ? [result] : [];
}
