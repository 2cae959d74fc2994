import { concat, type LineResult } from '../jsonl';
import { InspectEvalParser, isZip, ZIP_MAGIC } from './inspectEvalZip';
import type { LineParser, LineParserOptions } from './lineParser';
import type { FormatId } from './types';

/**
 * Chooses between the text reader and a binary one from the file's first bytes (the content decides, not
 * the name): a zip archive (`PK\x03\x04`) is an Inspect `.eval` log; anything else is lines of text.
 * The first bytes are held until there are enough to tell, then replayed into the chosen parser.
 */
export function sniffingParser(file: string, options: LineParserOptions, text: () => LineParser): LineParser {
  if (options.from === 'inspect-eval') return new InspectEvalParser(file);
  // A later part of a v1 file holds lines, whatever its first bytes look like.
  if ((options.from && options.from !== 'auto') || options.continuesV1) return text();
  return new SniffingParser(file, text);
}

class SniffingParser implements LineParser {
  private inner: LineParser | null = null;
  private head: Uint8Array = new Uint8Array(0);

  constructor(
    private readonly file: string,
    private readonly text: () => LineParser,
  ) {}

  get lines(): number {
    return this.inner?.lines ?? 0;
  }

  get format(): FormatId | null {
    return this.inner?.format ?? null;
  }

  get pendingBytes(): number {
    return this.inner?.pendingBytes ?? this.head.length;
  }

  get unsupported(): string | null {
    return this.inner?.unsupported ?? null;
  }

  completeTail(): LineResult[] {
    return this.inner?.completeTail() ?? [];
  }

  push(chunk: Uint8Array): LineResult[] {
    if (this.inner) return this.inner.push(chunk);
    const head = concat([this.head, chunk]);
    if (head.length < ZIP_MAGIC.length) {
      this.head = head;
      return [];
    }
    this.head = new Uint8Array(0);
    return this.choose(head).push(head);
  }

  end(): LineResult[] {
    if (this.inner) return this.inner.end();
    const inner = this.choose(this.head);
    return [...inner.push(this.head), ...inner.end()];
  }

  private choose(head: Uint8Array): LineParser {
    this.inner = isZip(head) ? new InspectEvalParser(this.file) : this.text();
    return this.inner;
  }
}
