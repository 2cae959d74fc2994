const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Where each line starts in the uncompressed bytes, found by scanning the same chunks the parser reads
 * (it splits on 0x0A exactly like LineSplitter, so line numbers agree). A line's span is its bytes
 * without the newline, a CR before it, or a first line's UTF-8 BOM: reading the span gives exactly the
 * line's JSON. One number per line is held (8 bytes), never the bytes.
 */
export class LineSpans {
  /** starts[i] is the offset of line firstLine + i. */
  private starts: number[] = [];
  /** Bytes seen so far, counted from the file's start. */
  private at: number;
  /** The byte before the current chunk (a CR split from its LF by a chunk boundary), and the one before it. */
  private lastByte = -1;
  private byteBeforeLast = -1;
  private readonly crBefore = new Set<number>();
  /** Lines (by index) that are not one JSON object or array on their own: a multi-line document's, or binary. */
  private readonly notJson = new Set<number>();
  /** The current line's first byte, once seen (-1: none yet). */
  private first = -1;
  /** The file's first four bytes: a BOM, and the byte after it. */
  private head: number[] = [];
  /** The bytes begin at the file's start, where a UTF-8 BOM may be (a part read from a later line has none). */
  private readonly fileStart: boolean;

  constructor(
    readonly firstLine = 1,
    startByte = 0,
  ) {
    this.at = startByte;
    this.fileStart = startByte === 0 && firstLine === 1;
    this.starts.push(startByte);
  }

  /** Bytes seen so far: the file's uncompressed size once the reader has ended. */
  get bytes(): number {
    return this.at;
  }

  /** Lines whose newline has been seen. */
  get completeLines(): number {
    return this.starts.length - 1;
  }

  push(chunk: Uint8Array): void {
    if (this.fileStart && this.head.length < 4) {
      for (let i = 0; i < chunk.length && this.head.length < 4; i++) this.head.push(chunk[i] ?? 0);
    }
    let from = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, nl + 1)) {
      const i = this.starts.length - 1;
      if (this.first === -1 && nl > from) this.first = chunk[from] ?? -1;
      const before = nl > 0 ? (chunk[nl - 1] ?? -1) : this.lastByte;
      if (before === CR) this.crBefore.add(i);
      const last = before === CR ? (nl > 1 ? (chunk[nl - 2] ?? -1) : nl === 1 ? this.lastByte : this.byteBeforeLast) : before;
      this.judge(i, last, this.at + nl);
      this.starts.push(this.at + nl + 1);
      from = nl + 1;
    }
    if (this.first === -1 && from < chunk.length) this.first = chunk[from] ?? -1;
    if (chunk.length > 0) {
      this.byteBeforeLast = chunk.length > 1 ? (chunk[chunk.length - 2] ?? -1) : this.lastByte;
      this.lastByte = chunk[chunk.length - 1] ?? -1;
    }
    this.at += chunk.length;
  }

  /** Notes a line (ending before byte `end`) whose first and last bytes are not a JSON object's or array's brackets. */
  private judge(i: number, last: number, end: number): void {
    let first = this.first;
    this.first = -1;
    // A first line may start with a BOM (EF BB BF), which the parser skips: its fourth byte is its first.
    if (i === 0 && this.bom()) first = end > 3 ? (this.head[3] ?? -1) : -1;
    if (!((first === 0x7b && last === 0x7d) || (first === 0x5b && last === 0x5d))) this.notJson.add(i);
  }

  private bom(): boolean {
    return this.head[0] === 0xef && this.head[1] === 0xbb && this.head[2] === 0xbf;
  }

  /** The stream ended: judges an unterminated last line. */
  end(): void {
    if (this.at > (this.starts.at(-1) ?? 0)) this.judge(this.starts.length - 1, this.lastByte === CR ? -1 : this.lastByte, this.at);
  }

  /**
   * Whether the line is one JSON value on its own, so its span is a record's JSON: not so for a line of a
   * pretty-printed document or a binary archive, whose rollouts then span the whole file.
   */
  isJsonLine(line: number): boolean {
    return !this.notJson.has(line - this.firstLine);
  }

  /** Offset of the first byte after line `line`'s newline (the next line's start), or null if unseen. */
  endOf(line: number): number | null {
    return this.starts[line - this.firstLine + 1] ?? null;
  }

  /** The line's bytes without its newline (or the file's end, for an unterminated last line). */
  span(line: number): { offset: number; length: number } {
    const i = line - this.firstLine;
    let offset = this.starts[i] ?? this.at;
    const next = this.starts[i + 1];
    let end = next === undefined ? this.at : next - 1;
    if (next !== undefined && this.crBefore.has(i)) end--;
    if (line === 1 && this.bom()) offset = Math.min(offset + 3, end);
    return { offset, length: Math.max(0, end - offset) };
  }
}
