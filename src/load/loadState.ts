import { type GroupSummary, type LintReport, LintSession } from '../analysis';
import { createLineParser, type LineParser, type LineResult } from '../format';
import { type CompactRollout, compactRollout } from './compact';

export interface LoadedFile {
  name: string;
  /** Bytes read as stored (compressed bytes for gzip). */
  bytes: number;
  lines: number;
  gzip: boolean;
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
  ended: boolean;
  countedLines: number;
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

  constructor(driftThreshold?: number) {
    this.session = new LintSession(driftThreshold === undefined ? {} : { driftThreshold });
  }

  addSource(name: string, { follow = false }: { follow?: boolean } = {}): SourceState {
    const state: SourceState = {
      name,
      parser: createLineParser(name),
      file: { name, bytes: 0, lines: 0, gzip: false },
      follow,
      ended: false,
      countedLines: 0,
    };
    this.sources.push(state);
    return state;
  }

  /** Feeds decoded (decompressed) bytes of one source. `storedBytes` counts what was read as stored. */
  push(source: SourceState, chunk: Uint8Array, storedBytes = chunk.length): void {
    this.take(source.parser.push(chunk));
    source.file.bytes += storedBytes;
    this.countLines(source);
  }

  /** The source has been read to its current end; a followed source keeps its partial last line. */
  end(source: SourceState): void {
    if (!source.follow) {
      this.take(source.parser.end());
      source.ended = true;
    }
    this.countLines(source);
  }

  snapshot(): LoadResult {
    return { ...this.summary(), records: [...this.records] };
  }

  /** Everything but the records: what a worker sends with only the records that are new. */
  summary(): Omit<LoadResult, 'records'> {
    return {
      report: this.session.report(),
      advantages: { grpo: this.session.advantages(true), drGrpo: this.session.advantages(false) },
      drGrpoGroups: this.session.groups(false),
      files: this.sources.map((s) => ({ ...s.file })),
      pending: this.sources.flatMap((s) =>
        s.follow && s.parser.pendingBytes > 0 ? [{ file: s.name, line: s.parser.lines + 1, bytes: s.parser.pendingBytes }] : [],
      ),
    };
  }

  private take(results: LineResult[]): void {
    for (const r of results) {
      this.session.add(r);
      if (r.kind === 'rollout') {
        this.rollouts++;
        this.records.push(compactRollout(r.value.record));
      } else this.parseErrors++;
    }
  }

  private countLines(source: SourceState): void {
    const delta = source.parser.lines - source.countedLines;
    if (delta > 0) this.session.addLineCount(delta);
    source.countedLines = source.parser.lines;
    source.file.lines = source.parser.lines;
  }
}
