import { open, rename, rm, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { formatCount, plural } from '../../analysis';
import { LAYOUT_INFO } from '../../format';
import { convertToFile } from '../convert';
import { OPEN_FLAGS } from '../noLinks';
import { listingDigest, listTraceDirectory } from '../traceDirectory';
import type { OpenedFile } from './catalog';

/** Failed files said, in all: past them, the counts alone. */
const SAID_ERRORS = 20;

/** What a served trace directory is now: its converted copy's name and stat. */
export interface TraceCopy {
  /** What a person reads: "conversation-1 (OpenHands SDK conversation).jsonl". */
  name: string;
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * A named directory served as one source when its files together are traces (docs/formats.md,
 * "Directories as traces"): the page reads files, and an OpenHands conversation's hundreds of event files
 * are no file it can read, so the directory is converted, as `trajscope convert DIR` converts it
 * (`convertToFile`), into a copy of v1 JSON Lines of this server's own (`file`, in a private temporary
 * folder), and that copy is what is listed and sent. The copy is made when first asked for and again
 * whenever the directory's listing (names, sizes, times) changed; each new copy is renamed into place, so
 * it has a new inode and the page reads it as a replaced file, not a grown one. Inside the directory
 * nothing is followed: the listing and the reads go through `traceDirectory.ts`.
 */
export class TraceSource {
  private digest: string | null = null;
  private copy: TraceCopy | null = null;
  /** One look at a time: the list is asked for by the change feed, the file list and the search at once. */
  private turn: Promise<unknown> = Promise.resolve();
  private made = 0;
  /** Failures already said, and the last counts said. */
  private readonly said = new Set<string>();
  private counted = '';
  private found = false;

  constructor(
    /** The directory's real path. */
    private readonly dir: string,
    /** Its name as the user named it (its base name is the copy's). */
    private readonly given: string,
    /** Where the copy is kept (this server's own file, in a folder made when first asked). */
    private readonly place: () => Promise<string>,
    private readonly say: (line: string) => void = () => {},
  ) {}

  /**
   * The copy as it is now, made again first if the directory changed; null when the directory holds no
   * trace layout. A conversion that fails (the disk full) keeps the copy before it, if any: `copy: null`.
   */
  current(): Promise<{ copy: TraceCopy | null } | null> {
    const next = this.turn.then(() => this.look());
    this.turn = next.catch(() => {});
    return next;
  }

  /** Opens the copy last made (null before one is, or when the directory no longer holds traces). */
  async open(): Promise<OpenedFile | null> {
    if (this.copy === null) return null;
    const handle = await open(await this.place(), OPEN_FLAGS).catch(() => null);
    if (handle === null) return null;
    const s = await handle.stat();
    if (s.isFile()) return { handle, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
    await handle.close();
    return null;
  }

  /** Whether the directory held traces when last looked at: its own files are then not served one by one. */
  get traced(): boolean {
    return this.found;
  }

  private async look(): Promise<{ copy: TraceCopy | null } | null> {
    const listing = await listTraceDirectory(this.dir).catch(() => null);
    this.found = listing?.found != null;
    if (!listing?.found) {
      this.copy = null;
      this.digest = null;
      return null;
    }
    // The digest before the conversion: a change while converting is seen at the next look.
    const digest = await listingDigest(listing);
    if (digest === this.digest && this.copy !== null) return { copy: this.copy };
    const labels = listing.found.layouts.map((l) => LAYOUT_INFO[l].label.replace(/^an? /, '')).join(' + ');
    // `view .` names it by the folder itself.
    const given = basename(this.given);
    const stem = given === '' || given === '.' || given === '..' ? basename(this.dir) : given;
    const name = `${stem} (${labels}).jsonl`;
    const file = await this.place();
    const tmp = `${file}.${this.made++}.tmp`;
    let failed = 0;
    let written = 0;
    try {
      // Named as the catalog names a directory's files: its base name and the path within it.
      ({ written } = await convertToFile(
        [{ path: this.dir, name: stem }],
        tmp,
        {},
        {
          failed: (e, n) => {
            failed = n;
            // A live directory is converted again and again: each failure is said once, not at every change.
            const line = `${e.file}:${e.line}: ${e.code} ${e.message}`;
            if (this.said.size < SAID_ERRORS && !this.said.has(line)) {
              this.said.add(line);
              this.say(line);
            }
          },
          said: () => {},
          unreadable: (_input, why) => this.say(`${this.given}: ${why}`),
        },
      ));
      await rename(tmp, file);
    } catch (e) {
      this.say(`${this.given}: could not convert it: ${e instanceof Error ? e.message : String(e)}`);
      return { copy: this.copy };
    } finally {
      await rm(tmp, { force: true });
    }
    const s = await stat(file);
    const counted = `${plural(written, 'rollout')}${failed > 0 ? `, ${formatCount(failed)} failed to convert` : ''}`;
    if (counted !== this.counted) {
      this.counted = counted;
      this.say(`${this.given}: ${listing.found.layouts.map((l) => LAYOUT_INFO[l].label).join(' and ')}, served as ${name}: ${counted}`);
    }
    this.copy = { name, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
    this.digest = digest;
    return { copy: this.copy };
  }
}
