import { Unzip, type UnzipFile, UnzipInflate } from 'fflate';
import { parseJson } from '../json';
import { concat, type LineResult } from '../jsonl';
import { convertValue } from './convertValue';
import type { LineParser } from './lineParser';
import { isRecord } from './read';
import type { FormatId } from './types';

/*
 * Inspect AI `.eval` logs are zip archives (inspect_ai/log/_recorders/eval.py): `_journal/start.json`
 * (the EvalSpec and plan, written when the run starts), one `samples/<id>_epoch_<n>.json` per sample
 * (written as each finishes), then `summaries.json`, `reductions.json` and `header.json` (written last).
 * The archive is read as a stream with fflate's `Unzip`: each sample entry is inflated, converted and
 * dropped, so memory is bounded by the largest sample, never the file.
 */

/** A local file header's signature: every zip archive that is not empty starts with it. */
export const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04] as const;

export function isZip(head: Uint8Array): boolean {
  return ZIP_MAGIC.every((b, i) => head[i] === b);
}

const SAMPLE = /^samples\/[^/]+\.json$/;
const SPEC = /^(_journal\/start\.json|header\.json)$/;

/** What the `inspect-eval` adapter is given beside a sample: the spec read so far and the entry's name. */
interface InspectEntryContext {
  log: unknown;
  entry: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A LineParser over the bytes of a `.eval` archive. Its "lines" are the sample entries, numbered in
 * archive order, so `lines = rollouts + errors` as in a JSONL file; errors name the entry.
 */
export class InspectEvalParser implements LineParser {
  readonly format: FormatId = 'inspect-eval';
  /** A zip is an Inspect log or one clear error saying what it holds instead: never "unsupported" text. */
  readonly unsupported = null;
  lines = 0;
  private readonly unzip = new Unzip();
  private out: LineResult[] = [];
  private log: unknown;
  private sawSpec = false;
  private failed = false;
  private pending = 0;

  constructor(readonly file: string) {
    this.unzip.register(UnzipInflate);
    this.unzip.onfile = (entry) => this.onEntry(entry);
  }

  get pendingBytes(): number {
    return this.pending;
  }

  /** A zip is read whole or not at all: a followed file has no tail to complete. */
  completeTail(): LineResult[] {
    return [];
  }

  push(chunk: Uint8Array): LineResult[] {
    this.feed(chunk, false);
    return this.take();
  }

  end(): LineResult[] {
    this.feed(new Uint8Array(0), true);
    if (!this.failed && this.lines === 0) {
      this.error(
        1,
        this.sawSpec
          ? 'an Inspect .eval log without samples (written with log_samples=False, or still starting)'
          : 'a zip archive, but not an Inspect .eval log: it holds no header.json, _journal/start.json or samples/*.json',
      );
    }
    return this.take();
  }

  private feed(chunk: Uint8Array, final: boolean): void {
    if (this.failed) return;
    try {
      this.unzip.push(chunk, final);
    } catch (e) {
      this.failed = true;
      this.error(this.lines + 1, `not a readable zip archive: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private onEntry(entry: UnzipFile): void {
    const isSample = SAMPLE.test(entry.name);
    if (!isSample && !SPEC.test(entry.name)) return; // not started: fflate skips its bytes
    const line = isSample ? ++this.lines : 0;
    const parts: Uint8Array[] = [];
    entry.ondata = (err, data, final) => {
      if (err) {
        this.error(line || 1, `${entry.name}: ${err.message}`);
        return;
      }
      parts.push(data);
      this.pending += data.length;
      if (!final) return;
      this.pending = 0;
      const value = this.parse(parts, entry.name, line || 1);
      if (value === undefined) return;
      if (!isSample) {
        // start.json comes first; header.json (last) repeats and completes it.
        if (isRecord(value)) {
          this.log = value;
          this.sawSpec = true;
        }
        return;
      }
      const context: InspectEntryContext = { log: this.log, entry: entry.name };
      this.out.push(...convertValue('inspect-eval', value, { file: this.file, line, metadata: context }));
    };
    entry.start();
  }

  private parse(parts: Uint8Array[], name: string, line: number): unknown {
    try {
      return parseJson(utf8.decode(concat(parts)));
    } catch (e) {
      this.error(line, `${name}: not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  private error(line: number, message: string): void {
    this.out.push({ kind: 'error', value: { file: this.file, line, code: 'E_PARSE', message } });
  }

  private take(): LineResult[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}
