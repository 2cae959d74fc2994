import {
  createLineParser,
  decodeLine,
  type FieldMapping,
  forEachLine,
  type LineResult,
  type LineRun,
  parseLine,
  type Rollout,
} from '../../format';
import { type ContentMatcher, contentMatcher, type RecordMatch } from './match';
import type { Clause } from './query';

/*
 * Searching a file's bytes: the same line reader as a load (createLineParser: v1, adapters, a field
 * mapping), then the content matcher on each record. No I/O: the page's search worker feeds it a File or
 * a fetch body, `trajscope view` a file stream, so both scan with one piece of code.
 */

/**
 * A matching rollout, named by where it is and its ids (the page maps these to its run-list row; one line
 * of some formats holds several rollouts, so file and line alone are not enough).
 */
export interface SearchMatch extends RecordMatch {
  file: string;
  line: number;
  rollout_id: string;
  attempt_id: string | null;
}

interface ScanOptions {
  mapping?: FieldMapping;
  /** Hits kept per rollout (all are counted). */
  maxHits?: number;
}

/** Printable ASCII that JSON writes as itself: such a needle appears verbatim in the raw line. */
const RAW_SAFE = /^[\x20-\x21\x23-\x2e\x30-\x5b\x5d-\x7e]+$/;

/**
 * A test on the raw line that no matching record can fail: each positive plain-text (or exact tool or
 * status) needle must appear in it. A line with a `\u` escape may spell the needle otherwise, so it is
 * always parsed. This is what makes a text search cost about a decode per line instead of a parse.
 */
function rawFilter(clauses: readonly Clause[]): ((line: string) => boolean) | null {
  const needles: RegExp[] = [];
  for (const c of clauses) {
    if (c.negated) continue;
    const t = c.term;
    const raw =
      t.kind === 'text'
        ? t.text
        : t.kind === 'name' && (t.field === 'tool' || t.field === 'status') && !t.value.includes('*')
          ? t.value
          : null;
    if (raw === null || !RAW_SAFE.test(raw)) continue;
    const sensitive = t.kind === 'text' && raw !== raw.toLowerCase();
    needles.push(new RegExp(raw.replace(/[.*+?^${}()|[\]]/g, '\\$&'), sensitive ? '' : 'i'));
  }
  if (needles.length === 0) return null;
  return (line) => line.includes('\\u') || needles.every((re) => re.test(line));
}

export class RecordScanner {
  /** Records read (matched or not); lines that do not parse are the load's to report, not the search's. */
  records = 0;
  private readonly matcher: ContentMatcher;
  private readonly parser;
  private readonly filter;
  private readonly runs: LineRun[] = [];

  constructor(
    readonly file: string,
    clauses: readonly Clause[],
    options: ScanOptions,
    private readonly onMatch: (m: SearchMatch) => void,
  ) {
    this.matcher = contentMatcher(clauses, options.maxHits);
    this.filter = rawFilter(clauses);
    this.parser = createLineParser(file, {
      ...(options.mapping ? { mapping: options.mapping } : {}),
      onV1Lines: (run) => this.runs.push(run),
    });
  }

  push(chunk: Uint8Array): void {
    this.take(this.parser.push(chunk));
  }

  end(): void {
    this.take(this.parser.end());
  }

  /** A push's results come before the runs it handed over (LineParserOptions.onV1Lines): keep line order. */
  private take(results: LineResult[]): void {
    this.results(results);
    for (const run of this.runs.splice(0)) forEachLine(run, (bytes, line) => this.v1Line(bytes, line));
  }

  private v1Line(bytes: Uint8Array, line: number): void {
    const text = decodeLine(bytes);
    if (text === null) return;
    if (this.filter && !this.filter(text)) {
      if (text.trim() !== '') this.records++;
      return;
    }
    const r = parseLine(text, line, this.file);
    if (r) this.results([r]);
  }

  private results(results: LineResult[]): void {
    for (const r of results) if (r.kind === 'rollout') this.record(r.value.record, r.value.line);
  }

  private record(record: Rollout, line: number): void {
    this.records++;
    const m = this.matcher.match(record);
    if (m) this.onMatch({ file: this.file, line, rollout_id: record.rollout_id, attempt_id: record.attempt_id ?? null, ...m });
  }
}
