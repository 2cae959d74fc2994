import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { arrayElement, type StreamedArray } from './jsonReport';

/** Text is written to the spool file in pieces about this big, and read back in chunks of it. */
const CHUNK = 1 << 20;

/**
 * A report array kept on disk, not in memory: each element is written, in its final text, when it is
 * pushed; the report copies the file back (`body`). An element may be changed once every element is in
 * (`edit`: a rollout's E_DUPLICATE_ROLLOUT is known only when its twin is read): that element alone is
 * parsed back. Held in memory: 8 bytes per element, for `edit`, when made `editable`. The file is
 * unlinked as soon as it is open, so a process killed midway (out of memory, ^C) leaves nothing behind.
 */
export class SpooledArray implements StreamedArray {
  readonly streamed = true;
  length = 0;
  private fd: number | null;
  private pending = '';
  private bytes = 0;
  private starts: Float64Array | null;
  private readonly edits = new Map<number, (value: unknown) => unknown>();

  constructor(path: string, { editable = false } = {}) {
    this.fd = openSync(path, 'wx+');
    unlinkSync(path);
    this.starts = editable ? new Float64Array(1024) : null;
  }

  push(value: unknown): void {
    const text = `${this.length > 0 ? ',\n' : ''}${arrayElement(value)}`;
    if (this.starts) {
      if (this.length === this.starts.length) {
        const grown = new Float64Array(this.starts.length * 2);
        grown.set(this.starts);
        this.starts = grown;
      }
      this.starts[this.length] = this.bytes;
    }
    this.length++;
    this.bytes += Buffer.byteLength(text);
    this.pending += text;
    if (this.pending.length >= CHUNK) this.flush();
  }

  /** Replaces element `index` by `change(value)` when the array is read back. */
  edit(index: number, change: (value: unknown) => unknown): void {
    if (!this.starts) throw new Error('this spooled array was not made editable');
    if (index < 0 || index >= this.length) throw new Error(`no element ${index} of ${this.length}`);
    this.edits.set(index, change);
  }

  /** Writes what is still pending; call after the last push. */
  finish(): void {
    this.flush();
  }

  /** Lets go of the file (read or not); its disk space is freed. */
  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private flush(): void {
    if (this.pending !== '') writeSync(this.open(), this.pending);
    this.pending = '';
  }

  private open(): number {
    if (this.fd === null) throw new Error('the spooled array was closed');
    return this.fd;
  }

  async *body(): AsyncGenerator<string | Uint8Array> {
    let at = 0;
    for (const index of [...this.edits.keys()].sort((a, b) => a - b)) {
      const start = this.starts?.[index] ?? 0;
      const end = index + 1 < this.length ? (this.starts?.[index + 1] ?? this.bytes) : this.bytes;
      yield* this.copy(at, start);
      const separator = index > 0 ? ',\n' : '';
      const text = Buffer.concat([...this.copy(start, end)]).toString('utf8');
      const value: unknown = JSON.parse(text.slice(separator.length));
      yield `${separator}${arrayElement(this.edits.get(index)?.(value) ?? value)}`;
      at = end;
    }
    yield* this.copy(at, this.bytes);
  }

  private *copy(from: number, to: number): Generator<Uint8Array> {
    for (let at = from; at < to; ) {
      // A fresh buffer each time: the stream it is handed to may hold it until it drains.
      const buffer = Buffer.alloc(Math.min(CHUNK, to - at));
      const read = readSync(this.open(), buffer, 0, buffer.length, at);
      if (read === 0) throw new Error('the spooled report ended early');
      at += read;
      yield buffer.subarray(0, read);
    }
  }
}
