import { type CheckOptions, type GroupSummary, type LintReport, LintSession } from '../analysis';
import {
  createLineParser,
  type FieldMapping,
  type LineParser,
  type LineResult,
  type LineRun,
  type ReadOptions,
  StreamWindows,
  type WindowsDigest,
} from '../format';
import type { CompactRollout } from './compact';
import { FOLLOW_CHECK_BYTES } from './followCheck';
import { joinRuns, type ParsePool, type ProcessedLine, parseBlock, processResult, runBytes } from './lineBlocks';

/** Bytes of lines sent to the pool at once: large enough that messages are few, small enough to spread. */
const BLOCK_BYTES = 1024 * 1024;

/** Bytes of lines the pool may hold at once; the reader waits (`room()`) beyond it, so memory stays bounded. */
const IN_FLIGHT_BYTES = 16 * BLOCK_BYTES;

/** Parsed lines waiting their turn, or a block still in the pool; `source`/`count` say which lines it holds. */
interface QueueEntry {
  lines: ProcessedLine[] | null;
  source: SourceState | null;
  count: number;
}

/** How sources are read (format/readOptions.ts): the page uses the mapping, unknown-as-finished and rules it holds in the URL. */
export type { ReadOptions };

export interface LoadStateOptions {
  driftThreshold?: number;
  read?: ReadOptions;
  /**
   * Parses v1 lines in other threads. Results still enter the lint session in line order; until they
   * are all back (`settled()`), a snapshot shows the lines before the first one outstanding.
   */
  pool?: ParsePool;
}

export interface LoadedFile {
  name: string;
  /** Bytes read as stored (compressed bytes for gzip). */
  bytes: number;
  lines: number;
  gzip: boolean;
  /** The inode `trajscope view` served it from: a follower tells a replaced file from a grown one. */
  ino?: number;
  /** The first and the last bytes read (format/read's check windows) as a digest, once read to an end: a follower tells a rewritten file from a grown one. */
  check?: WindowsDigest;
  /** Once read to its end: no line was of a known format; what the file looks like, in one line. */
  unsupported?: string;
}

/** A followed file's last line that has no newline yet: held back, not reported as broken. */
export interface PendingLine {
  file: string;
  line: number;
  bytes: number;
}

export interface LoadResult {
  report: LintReport;
  /**
   * The validated records, index-aligned with `report.rollouts`, compacted (shared context prefixes kept
   * once, ids in typed arrays); `expandRollout` gives a record back exactly when a view opens it.
   */
  records: CompactRollout[];
  /** Each rollout's advantage in its group (null when not counted), index-aligned with `report.rollouts`. */
  advantages: { grpo: (number | null)[]; drGrpo: (number | null)[] };
  /** Group statistics without std normalisation (Dr. GRPO); `report.groups` has the GRPO ones. */
  drGrpoGroups: GroupSummary[];
  files: LoadedFile[];
  pending: PendingLine[];
}

/** One source being read: its parser and how far it has got. */
export interface SourceState {
  readonly name: string;
  /** Detects the format on the first line: v1, or one of the adapters' formats (converted as read). */
  readonly parser: LineParser;
  file: LoadedFile;
  /** Whether the last unterminated line is held back (a live file) rather than parsed at the end. */
  follow: boolean;
  /** Runs of v1 lines handed over by the parser, not yet sent to be parsed, and their bytes. */
  held: LineRun[];
  heldBytes: number;
  /** Lines read but not yet parsed (held or in the pool): not counted yet, so lines and rollouts agree. */
  unparsedLines: number;
  ended: boolean;
  countedLines: number;
  /** The check windows of the bytes read, whose digest is `file.check`. */
  windows: StreamWindows;
  /** The parser keeps views of the chunks it is given (`ownsChunks`): each must be its own, never reused. */
  ownsChunks: boolean;
}

/**
 * Everything read so far from a set of sources, growing chunk by chunk. A followed (live) source can
 * keep growing after its first read: its new bytes are pushed through the same parser, so a line split
 * across two reads is joined, and a half-written last line waits for its newline.
 */
export class LoadState {
  readonly session: LintSession;
  readonly records: CompactRollout[] = [];
  readonly sources: SourceState[] = [];
  rollouts = 0;
  parseErrors = 0;
  /** Where v1 lines are parsed; null parses them here, at once (as after a load, for a live file's appends). */
  pool: ParsePool | null;
  private readonly checks: CheckOptions;
  private readonly mapping: FieldMapping | undefined;
  /** Results in line order; `lines` is null until its block comes back from the pool. */
  private readonly queue: QueueEntry[] = [];
  private inFlight = 0;
  private failure: { error: unknown } | null = null;
  private waiters: Array<() => void> = [];

  constructor(options: LoadStateOptions = {}) {
    this.checks = {
      driftThreshold: options.driftThreshold,
      unknownAsFinished: options.read?.unknownAsFinished,
      ...(options.read?.rules ? { rules: options.read.rules } : {}),
    };
    this.mapping = options.read?.mapping;
    this.session = new LintSession(this.checks);
    this.pool = options.pool ?? null;
  }

  addSource(name: string, { follow = false }: { follow?: boolean } = {}): SourceState {
    const hold = (run: LineRun) => {
      state.held.push(run);
      state.heldBytes += runBytes(run);
      state.unparsedLines += run.count;
    };
    const state: SourceState = {
      name,
      // Without a pool at the start, lines are parsed where they are read, as they always were.
      // With a pool, every chunk the parser gets is its own (`push` copies any other): a run may hold views of it.
      ownsChunks: this.pool !== null,
      parser: createLineParser(name, {
        ...(this.pool ? { onV1Lines: hold, ownsChunks: true } : {}),
        ...(this.mapping ? { mapping: this.mapping } : {}),
      }),
      file: { name, bytes: 0, lines: 0, gzip: false },
      follow,
      held: [],
      heldBytes: 0,
      unparsedLines: 0,
      ended: false,
      countedLines: 0,
      windows: new StreamWindows(FOLLOW_CHECK_BYTES),
    };
    this.sources.push(state);
    return state;
  }

  /**
   * Feeds decoded (decompressed) bytes of one source. `storedBytes` counts what was read as stored.
   * `owned`: the caller gives the chunk's buffer away (a stream reader's chunk), so a pool may take it
   * without a copy; otherwise the chunk is copied first when a pool may hold on to it.
   */
  push(source: SourceState, chunk: Uint8Array, { storedBytes = chunk.length, owned = false } = {}): void {
    // A view of part of a buffer may share it with other chunks: only a whole buffer is taken as it is.
    const whole = chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength;
    // Before the parse: a pool may take the chunk's buffer away.
    source.windows.push(chunk);
    this.take(source.parser.push(!source.ownsChunks || (owned && whole) ? chunk : chunk.slice()));
    // A full block goes out; so does any held line while the pool is idle (the first rows, a slow reader).
    if (this.pool === null || source.heldBytes >= BLOCK_BYTES || this.inFlight === 0) this.flush(source);
    source.file.bytes += storedBytes;
    this.countLines(source);
  }

  /**
   * The source has been read to its current end. A followed source keeps a partial last line (a writer
   * may be half-way through it), unless that line is already whole JSON (`completeTail`), read now as
   * `lint` reads a last line without a newline.
   */
  end(source: SourceState): void {
    if (!source.follow) {
      this.take(source.parser.end());
      source.ended = true;
    } else {
      this.take(source.parser.completeTail());
    }
    this.flush(source);
    this.countLines(source);
    source.file.check = source.windows.digest();
    // A followed file's verdict is so far: it may still turn out to be v1 once a record arrives.
    const unsupported = source.parser.unsupported;
    if (unsupported !== null) source.file.unsupported = unsupported;
    else delete source.file.unsupported;
  }

  /**
   * The source cannot be read past here (its gzip data stopped being gzip): its last line is read as at
   * an end, then one error for the rest, on the line after the last.
   */
  endWithError(source: SourceState, message: string): void {
    this.take(source.parser.end());
    source.ended = true;
    source.follow = false;
    this.flush(source);
    this.take([{ kind: 'error', value: { file: source.name, line: source.parser.lines + 1, code: 'E_PARSE', message } }]);
    this.countLines(source);
  }

  /** Resolves once the pool holds few enough bytes to send it more; rejects if the pool failed. */
  room(): Promise<void> {
    return this.until(() => this.inFlight < IN_FLIGHT_BYTES);
  }

  /** Resolves once every line read so far is in the lint session and the records; rejects if the pool failed. */
  settled(): Promise<void> {
    return this.until(() => this.queue.length === 0);
  }

  snapshot(): LoadResult {
    return { ...this.summary(), records: [...this.records] };
  }

  /** Everything but the records: what a worker sends with only the records that are new. */
  summary(): Omit<LoadResult, 'records'> {
    const report = this.session.report();
    return {
      report,
      advantages: { grpo: this.session.advantages(true), drGrpo: this.session.advantages(false) },
      drGrpoGroups: this.session.groups(false),
      files: this.sources.map((s) => ({ ...s.file })),
      pending: this.sources.flatMap((s) =>
        s.follow && s.parser.pendingBytes > 0 ? [{ file: s.name, line: s.parser.lines + 1, bytes: s.parser.pendingBytes }] : [],
      ),
    };
  }

  /** Results the line parser gave itself (lines before the format was known, or other formats). */
  private take(results: LineResult[]): void {
    if (results.length === 0) return;
    this.queue.push({ lines: results.map((r) => processResult(r, this.checks)), source: null, count: 0 });
    this.drain();
  }

  private flush(source: SourceState): void {
    const block = joinRuns(source.name, source.held);
    const size = source.heldBytes;
    source.held = [];
    source.heldBytes = 0;
    if (!block) return;
    const pool = this.pool;
    if (pool === null) {
      this.queue.push({ lines: parseBlock(block, this.checks), source, count: block.count });
      this.drain();
      return;
    }
    const entry: QueueEntry = { lines: null, source, count: block.count };
    this.queue.push(entry);
    this.inFlight += size;
    pool.parse(block, this.checks).then(
      (lines) => {
        entry.lines = lines;
        this.inFlight -= size;
        this.drain();
      },
      (error: unknown) => {
        this.failure ??= { error };
        this.wake();
      },
    );
  }

  /** Moves finished results into the session, in line order: only from the front of the queue. */
  private drain(): void {
    for (let head = this.queue[0]; head?.lines; head = this.queue[0]) {
      this.queue.shift();
      if (head.source) {
        head.source.unparsedLines -= head.count;
        this.countLines(head.source);
      }
      for (const line of head.lines) {
        if (line.kind === 'rollout') {
          this.session.addSummary(line.summary, line.facts);
          this.rollouts++;
          this.records.push(line.compact);
        } else {
          this.session.add(line);
          this.parseErrors++;
        }
      }
    }
    this.wake();
  }

  private until(ready: () => boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.failure) reject(this.failure.error);
        else if (ready()) resolve();
        else this.waiters.push(check);
      };
      check();
    });
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  private countLines(source: SourceState): void {
    const parsed = source.parser.lines - source.unparsedLines;
    const delta = parsed - source.countedLines;
    if (delta > 0) this.session.addLineCount(delta);
    source.countedLines = parsed;
    source.file.lines = parsed;
  }
}
