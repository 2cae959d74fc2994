import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { jsonLine, type LineOut } from '../../analysis';

/**
 * Where an export is written while it runs: beside `out`, under a hidden name, renamed to `out` only once
 * whole, so a failed or interrupted export never leaves a file that looks like a finished one.
 */
export function pendingPath(out: string): string {
  return join(dirname(out), `.${basename(out)}.${process.pid}.partial`);
}

/**
 * Creates `path` as a new empty file, refusing one that exists: a file or a symbolic link planted there (in
 * a run's folder, say) would otherwise have the export's bytes written through it, outside the folder. Every
 * later open of `path` then reaches the file made here.
 */
export function claimNew(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o644));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${path} exists already (a file or a link left there): refused`);
    throw e;
  }
}

/** Moves a finished export into place; `discard` removes an unfinished one. */
export function commit(pending: string, out: string): void {
  renameSync(pending, out);
}

export function discard(pending: string): void {
  rmSync(pending, { force: true });
}

/** Flushed at this size: the text held is one buffer, whatever the number of lines. */
const FLUSH_CHARS = 1 << 20;

/**
 * JSON Lines written synchronously in ~1 MiB writes. The reader hands records to a callback it does not
 * wait on, so an asynchronous stream would buffer without bound when the disk is slower than the parse;
 * a synchronous write keeps what is held to one buffer.
 */
export class JsonLinesOut implements LineOut {
  private readonly fd: number;
  private buffer = '';
  lines = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(value: unknown): void {
    this.buffer += jsonLine(value);
    this.lines++;
    if (this.buffer.length >= FLUSH_CHARS) this.flush();
  }

  private flush(): void {
    if (this.buffer.length > 0) writeSync(this.fd, this.buffer);
    this.buffer = '';
  }

  close(): void {
    try {
      this.flush();
    } finally {
      closeSync(this.fd);
    }
  }
}
