import type { ChildProcess } from 'node:child_process';
import { open } from 'node:fs/promises';
import { keepChild, lendChild } from './children';
import { type CountedPart, type ScanResult, type ScanTask, scanFile } from './scanFile';
import type { Reply, Request } from './worker';
import { indexWorkerEntry } from './workerBundle';

/**
 * Indexes the files in `jobs` processes: a map over files, and over parts of files. A job takes the next
 * piece of work when it finishes one, the largest file first, so one huge file does not start last. With
 * more than one job, a piece is at most the bytes left divided by twice the jobs (guided self-scheduling):
 * early pieces are whole files, and as the run nears its end the pieces shrink, splitting a file at line
 * starts (`splittable` files only: plain v1 JSON Lines), so no job sits idle while another reads a whole
 * file, and one file of 20 GB uses every core. A later part's line numbers are known only once the parts
 * before it are counted: it is read first and written then (scanFile's `CountedPart`), in the job that
 * read it, while that job goes on with other work. Processes, not threads: a crash in one (a line that
 * exhausts its heap) names its file and leaves the others' heaps alone. Each child runs the bundled worker
 * (workerBundle.ts). One of the jobs is this process, which starts at once while a child loads.
 */

/** Where an index run's time goes, for the bench: a job's start (ready), and each piece it took (ms since the run began). */
export interface PoolTrace {
  ready: number[];
  files: { job: number; file: string; bytes: number; part: boolean; from: number; to: number }[];
}

export interface PoolTask extends ScanTask {
  /** Bytes to read (from the part's start, if any, to the file's end). */
  size: number;
  /** May be split between jobs at line starts (plain JSON Lines whose first line is v1). */
  splittable: boolean;
}

/** The smallest piece a file is split into: about 40 ms of reading, so a part's own costs stay small. */
export const MIN_PART_BYTES = 8 * 2 ** 20;
/**
 * The largest part of a cut file. A later part's rows wait in memory until the parts before it are
 * counted; with every part this short, a job holds the rows of a part or two at most.
 */
const MAX_PART_BYTES = 64 * 2 ** 20;

/** One file's work: the bytes not yet handed out, and its parts in order. */
interface FileWork {
  task: PoolTask;
  start: number;
  end: number;
  next: number;
  parts: Part[];
}

interface Part {
  from: number;
  to: number | null;
  /** The first line's number, when known before reading (the file's first part). */
  line: number | null;
  /** Read: written, or counted and waiting for its first line's number. */
  read?: ScanResult | CountedPart;
  /** Settles once the part is written (its shards on disk, its lines numbered). */
  written: Promise<ScanResult>;
  write?: (result: Promise<ScanResult>) => void;
}

export type Scan = (task: ScanTask) => Promise<ScanResult | CountedPart>;

export async function scanAll(
  tasks: readonly PoolTask[],
  jobs: number,
  trace?: { began: number; pool: PoolTrace },
  minPartBytes = MIN_PART_BYTES,
): Promise<ScanResult[]> {
  const files: FileWork[] = tasks.map((task) => {
    const start = task.part?.from ?? 0;
    return { task, start, end: start + task.size, next: start, parts: [] };
  });
  const work = [...files].sort((a, b) => b.task.size - a.task.size);
  // A splittable file can keep every job busy on its own.
  const workers = Math.max(1, Math.min(jobs, tasks.some((t) => t.splittable) ? jobs : tasks.length));
  const since = () => performance.now() - (trace?.began ?? 0);
  const take = serialized(() => nextPiece(work, workers, minPartBytes));

  /** Takes pieces until none is left; `scan` reads one here or in a child (job `job`). */
  const drain = async (job: number, scan: Scan) => {
    trace?.pool.ready.push(since());
    for (let piece = await take(); piece; piece = await take()) {
      const { file, part } = piece;
      const from = since();
      part.read = await scan(pieceTask(file, part));
      trace?.pool.files.push({
        job,
        file: file.task.file,
        bytes: (part.to ?? file.end) - part.from,
        part: part.from !== file.start || part.to !== null,
        from,
        to: since(),
      });
      writeCounted(file);
    }
  };
  const children: { child: ChildProcess; script: string; ready: Promise<void> }[] = [];
  const entry = workers > 1 ? indexWorkerEntry() : null;
  let ok = false;
  try {
    const here = drain(0, scanFile);
    await Promise.all([
      here,
      ...Array.from({ length: workers - 1 }, async (_, j) => {
        if (!entry) return;
        const { script, args } = await entry;
        if (work.every(handedOut)) return;
        const { child, ready } = lendChild(script, args);
        children.push({ child, script, ready });
        // Small runs are done here before a new child has even loaded: then it is not waited for.
        await Promise.race([ready, here]);
        if (work.every(handedOut)) return;
        await ready;
        const scan = remoteScan(child);
        try {
          await drain(j + 1, scan);
          // Parts this child read may still wait for their first line's number: it stays until they are written.
          await Promise.all(work.map(whenWritten));
        } finally {
          scan.release();
        }
      }),
    ]);
    const results = await Promise.all(files.map(whenWritten));
    ok = true;
    return results;
  } finally {
    // Children of a run that went well serve the next one (children.ts); a failed run's are ended.
    for (const c of children) {
      if (ok) keepChild(c.child, c.script, c.ready);
      else if (c.child.exitCode === null && c.child.connected) c.child.kill();
    }
  }
}

/** Every byte of the file is handed out (an empty file too, once it has its one piece). */
const handedOut = (w: FileWork) => w.parts.length > 0 && w.next >= w.end;

/** The next piece of work, or null when every byte is handed out. */
async function nextPiece(work: FileWork[], jobs: number, minPartBytes: number): Promise<{ file: FileWork; part: Part } | null> {
  const file = work.find((w) => !handedOut(w));
  if (!file) return null;
  const from = file.next;
  const first = from === file.start;
  let to: number | null = null;
  if (jobs > 1 && file.task.splittable) {
    const left = work.reduce((n, w) => n + (w.end - w.next), 0);
    let size = Math.max(minPartBytes, Math.ceil(left / (2 * jobs)));
    // Not a sliver at the end: a rest under a quarter more than the piece goes with it.
    const whole = first && file.end - from <= size * 1.25;
    // A whole file streams at any size. Once a file is cut, every part is at most MAX_PART_BYTES, the first
    // too: a later part's rows wait in memory for the parts before it, so those must not be long.
    if (!whole) size = Math.min(size, Math.max(minPartBytes, MAX_PART_BYTES));
    if (!whole && file.end - from > size * 1.25) {
      const at = await lineStartAfter(file.task.path, from + size, file.end);
      if (at < file.end) to = at;
    }
  }
  file.next = to ?? file.end;
  let write: Part['write'];
  const written = new Promise<ScanResult>((resolve) => {
    write = resolve;
  });
  // A failed part fails the run where it is awaited; here it must not count as unhandled.
  written.catch(() => {});
  const part: Part = { from, to, line: first ? (file.task.part?.line ?? 1) : null, written, write };
  file.parts.push(part);
  return { file, part };
}

/** The task that reads one piece: the file's own task when the piece is all of it. */
function pieceTask(file: FileWork, part: Part): ScanTask {
  const { size: _size, splittable: _splittable, ...task } = file.task;
  if (part.from === file.start && part.to === null) return task;
  return { ...task, part: { from: part.from, to: part.to, line: part.line } };
}

/**
 * Writes each counted part whose first line's number is now known (all parts before it read): the
 * number after the previous part's lines.
 */
function writeCounted(file: FileWork): void {
  let line: number | null = null;
  for (const part of file.parts) {
    const read = part.read;
    if (!read) return;
    if ('finish' in read) {
      if (line === null) return;
      part.write?.(read.finish(line));
      line += read.lines;
    } else {
      part.write?.(Promise.resolve(read));
      line = read.lines + 1;
    }
    part.write = undefined;
  }
}

/** A file's result once every part is handed out, read and written: its parts joined in order. */
async function whenWritten(file: FileWork): Promise<ScanResult> {
  // Called once every piece is handed out; each part is written once the parts before it are read.
  return joinParts(await Promise.all(file.parts.map((p) => p.written)));
}

function joinParts(parts: ScanResult[]): ScanResult {
  const first = parts[0] as ScanResult;
  if (parts.length === 1) return first;
  const last = parts[parts.length - 1] as ScanResult;
  return {
    shards: parts.flatMap((p) => p.shards),
    parse_errors: parts.flatMap((p) => p.parse_errors),
    lines: last.lines,
    complete_lines: last.complete_lines,
    complete_bytes: last.complete_bytes,
    gzip: first.gzip,
    format: first.format,
    policy_versions: [...new Set(parts.flatMap((p) => p.policy_versions))],
    unstepped: parts.reduce((n, p) => n + p.unstepped, 0),
    unsupported: first.unsupported,
  };
}

/** The start of the first line that begins at or after byte `at` (or `end`). */
async function lineStartAfter(path: string, at: number, end: number): Promise<number> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(64 * 1024);
    // The line holding byte at-1 ends at the first newline from there.
    for (let pos = at - 1; pos < end; pos += buf.length) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, end - pos), pos);
      if (bytesRead === 0) break;
      const nl = buf.subarray(0, bytesRead).indexOf(0x0a);
      if (nl !== -1) return Math.min(end, pos + nl + 1);
    }
    return end;
  } finally {
    await handle.close();
  }
}

/** Calls of `f` one after another (each starts when the one before has settled). */
function serialized<T>(f: () => Promise<T>): () => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return () => {
    const next = last.then(f, f);
    last = next.catch(() => {});
    return next;
  };
}

/**
 * A child (worker.ts, loaded) as a `Scan`: requests by id, so a part's write can be asked for while the
 * child reads another. `release` removes its listeners, when the child is handed back for another run.
 */
export function remoteScan(child: ChildProcess): Scan & { release: () => void } {
  let ids = 0;
  const waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void; what: string }>();
  const onMessage = (reply: Reply) => {
    const w = waiting.get(reply.id);
    waiting.delete(reply.id);
    w?.resolve(reply);
  };
  const onExit = (code: number | null, signal: string | null) => {
    for (const w of waiting.values())
      w.reject(new Error(`the index process for ${w.what} ended (${signal ?? `exit ${code}`}) before finishing it`));
    waiting.clear();
  };
  child.on('message', onMessage);
  child.once('exit', onExit);
  const request = (message: Request, what: string) =>
    new Promise<Reply>((resolve, reject) => {
      waiting.set(message.id, { resolve, reject, what });
      child.send(message);
    });
  const result = (reply: Reply, what: string): ScanResult | number => {
    if ('error' in reply) throw new Error(`${what}: ${reply.error}`);
    return 'ok' in reply ? reply.ok : reply.counted;
  };
  const scan: Scan = async (task) => {
    const id = ids++;
    const read = result(await request({ id, scan: task }, task.file), task.file);
    if (typeof read !== 'number') return read;
    return {
      lines: read,
      finish: async (line) => result(await request({ id: ids++, finish: id, line }, task.file), task.file) as ScanResult,
    };
  };
  return Object.assign(scan, {
    release: () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    },
  });
}
