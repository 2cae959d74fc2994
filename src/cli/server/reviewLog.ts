import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { LineSplitter, OVERLONG_LINE } from '../../format/jsonl';
import {
  MAX_REVIEW_ENTRY_BYTES,
  REVIEW_LOG_PATH,
  type ReviewLogEntry,
  readReviewLogLine,
  reviewLogLine,
} from '../../format/reviews/reviewLog';
import { OPEN_FLAGS, reachesWithoutLinks } from '../noLinks';

/** The log's path below the run directory, as parts (`.trajscope`, `reviews.jsonl`). */
const PARTS = REVIEW_LOG_PATH.split('/');
const DIR = PARTS[0] ?? '.trajscope';

/** Appending, never following a link at the last component, creating the file when it is missing. */
const APPEND_FLAGS = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** The log cannot be used as it is on disk (a link where the folder or file should be); the message says which. */
export class ReviewLogRefused extends Error {}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * `RUN/.trajscope/reviews.jsonl` on disk (docs/adr/0026). Each entry is one write of one whole line on an
 * O_APPEND descriptor, so entries appended at once (two requests, two servers) land whole, one after the
 * other. Nothing is followed: `.trajscope` must be a real directory, and the file is opened no-follow and
 * checked, once open, to be that path reached through real directories (noLinks.ts).
 */
export class ReviewLog {
  constructor(private readonly root: string) {}

  /** The entries in log order (only those of `digest` when given) and how many lines were not entries. */
  async read(digest?: string): Promise<{ entries: ReviewLogEntry[]; skipped: number }> {
    const entries: ReviewLogEntry[] = [];
    let skipped = 0;
    if (!(await this.folder(false))) return { entries, skipped };
    const handle = await open(join(this.root, ...PARTS), OPEN_FLAGS).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      throw this.refusedOr(e);
    });
    if (handle === null) return { entries, skipped };
    try {
      await this.check(handle);
      const splitter = new LineSplitter(MAX_REVIEW_ENTRY_BYTES);
      const onLine = (bytes: Uint8Array) => {
        if (bytes === OVERLONG_LINE) {
          skipped++;
          return;
        }
        let text: string;
        try {
          text = decoder.decode(bytes);
        } catch {
          skipped++;
          return;
        }
        if (text.trim() === '') return;
        const entry = readReviewLogLine(text);
        if (entry === null) skipped++;
        else if (digest === undefined || entry.digest === digest) entries.push(entry);
      };
      for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: 256 * 1024 })) {
        splitter.push(chunk as Buffer, onLine);
      }
      splitter.end(onLine);
    } finally {
      await handle.close();
    }
    return { entries, skipped };
  }

  /** The appends of this server, one after another (see `append`). */
  private appending: Promise<void> = Promise.resolve();

  /**
   * Appends one entry as one line, creating `.trajscope/` and the file when missing. Appends run one at a
   * time: each looks at the file's last byte to start on a line of its own, and one running beside another
   * saw the other's line half written and began a blank line (reviews.test.ts, 50 entries posted at once:
   * 51 lines in 1 run of 5).
   */
  append(entry: ReviewLogEntry): Promise<void> {
    const run = this.appending.then(() => this.appendNow(entry));
    this.appending = run.catch(() => {});
    return run;
  }

  private async appendNow(entry: ReviewLogEntry): Promise<void> {
    await this.folder(true);
    const handle = await open(join(this.root, ...PARTS), APPEND_FLAGS, 0o644).catch((e: NodeJS.ErrnoException) => {
      throw this.refusedOr(e);
    });
    try {
      const s = await this.check(handle);
      // A last line left without its newline (a hand edit, a crash) must not swallow this entry.
      let lead = '';
      if (s.size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, s.size - 1);
        if (last[0] !== 0x0a) lead = '\n';
      }
      const bytes = Buffer.from(`${lead}${reviewLogLine(entry)}\n`, 'utf8');
      const { bytesWritten } = await handle.write(bytes, 0, bytes.length);
      if (bytesWritten !== bytes.length) throw new Error(`only ${bytesWritten} of ${bytes.length} bytes of the review were written`);
    } finally {
      await handle.close();
    }
  }

  /** Whether `.trajscope` exists as a real directory (made when `create`); a link or a file there is refused. */
  private async folder(create: boolean): Promise<boolean> {
    const path = join(this.root, DIR);
    let s = await lstat(path).catch(() => null);
    if (s === null && create) {
      await mkdir(path, { mode: 0o755 }).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'EEXIST') throw e;
      });
      s = await lstat(path);
    }
    if (s === null) return false;
    if (s.isSymbolicLink()) throw new ReviewLogRefused(`${DIR} is a symbolic link: refused (reviews are kept only inside the run)`);
    if (!s.isDirectory()) throw new ReviewLogRefused(`${DIR} is not a directory`);
    return true;
  }

  /**
   * The opened file is a regular file at `.trajscope/reviews.jsonl`, reached through real directories only,
   * and has no other name (a hard link planted in a run would have appends land in the file it shares).
   */
  private async check(handle: FileHandle) {
    const s = await handle.stat();
    if (!s.isFile() || s.nlink !== 1 || !(await reachesWithoutLinks(handle, this.root, PARTS, s))) {
      throw new ReviewLogRefused(`${REVIEW_LOG_PATH} is not a regular file inside the run: refused`);
    }
    return s;
  }

  /** ELOOP (a link at the last component, under O_NOFOLLOW) is a refusal; anything else stays what it is. */
  private refusedOr(e: NodeJS.ErrnoException): Error {
    return e.code === 'ELOOP' ? new ReviewLogRefused(`${REVIEW_LOG_PATH} is a symbolic link: refused`) : e;
  }
}
