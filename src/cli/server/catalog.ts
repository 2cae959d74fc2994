import { type FileHandle, lstat, mkdtemp, open, readdir, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, sep } from 'node:path';
import { distinctNames, type NamedSource, type ServedFile } from '../../format';
import { OPEN_FLAGS, reachesWithoutLinks } from '../noLinks';
import { isTrajectoryFile } from '../trajectoryFiles';
import { TraceSource } from './traceSource';

export type { ServedFile };

const MAX_DEPTH = 4;

interface Root {
  kind: 'file' | 'dir';
  given: string;
  real: string;
  /** A directory's trace layouts, served as one converted source when it holds any (traceSource.ts). */
  trace?: TraceSource;
}

export interface CatalogOptions {
  /** Where what a trace directory's conversion says goes (a line each): its counts, the files that failed. */
  say?: (line: string) => void;
}

/** An opened served file: the descriptor and its own stat (the bytes sent are the bytes checked). */
export interface OpenedFile {
  handle: FileHandle;
  size: number;
  mtimeMs: number;
  ino: number;
}

/**
 * The named paths and nothing else (docs/adr/0007, 0010). A named path is resolved once, at start (the
 * user named it, links and all); inside a named directory nothing is followed: the list holds the
 * regular, non-hidden trajectory files reached through real directories, and a request is served only
 * when the descriptor it opened (no-follow) is that same file, checked after opening, so a file or
 * directory swapped for a symlink meanwhile serves nothing. Everything refused is the same 404.
 * A named directory whose files together are traces (an OpenHands conversation, a Harbor job, a tau2-bench
 * results directory) is served as one source, `t<n>`: its converted copy (traceSource.ts), not its files.
 */
export class Catalog {
  /** The private folder of the converted copies, made when the first is. */
  private copies: Promise<string> | null = null;

  private constructor(private readonly roots: Root[]) {}

  /** Checks every path exists; rejects with a message naming the first that does not. */
  static async open(paths: string[], options: CatalogOptions = {}): Promise<Catalog> {
    const roots: Root[] = [];
    for (const given of paths) {
      let real: string;
      try {
        real = await realpath(given);
      } catch {
        throw new Error(`no such file or directory: ${given}`);
      }
      const s = await stat(real);
      if (s.isDirectory()) roots.push({ kind: 'dir', given, real });
      else if (s.isFile()) roots.push({ kind: 'file', given, real });
      else throw new Error(`not a file or directory: ${given}`);
    }
    const catalog = new Catalog(roots);
    for (const [n, root] of roots.entries()) {
      if (root.kind === 'dir') root.trace = new TraceSource(root.real, root.given, () => catalog.copyPath(n), options.say);
    }
    return catalog;
  }

  /** Where root `n`'s converted copy is kept: a folder of this process's own, never inside what was named. */
  private async copyPath(n: number): Promise<string> {
    this.copies ??= mkdtemp(join(tmpdir(), 'trajscope-view-'));
    return join(await this.copies, `t${n}.jsonl`);
  }

  /** Deletes the converted copies (`view` calls it as it stops). */
  async close(): Promise<void> {
    const dir = await this.copies?.catch(() => null);
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  /**
   * The one directory named, resolved at start, when it is all that is served: the run whose review log
   * `view` keeps (docs/adr/0026). Named files, or several paths, have no one folder to write in.
   */
  soleDirectory(): string | undefined {
    const only = this.roots.length === 1 ? this.roots[0] : undefined;
    return only?.kind === 'dir' ? only.real : undefined;
  }

  /**
   * The directories to watch for changes: each named directory and its subdirectories, and each named
   * file's folder (a file replaced by a rename is a change of its folder, not of the old inode).
   */
  watchRoots(): { path: string; depth: number }[] {
    return this.roots.map((r) => (r.kind === 'dir' ? { path: r.real, depth: MAX_DEPTH } : { path: dirname(r.real), depth: 0 }));
  }

  /**
   * Every served file as it is now (a directory is listed afresh each time, so new files appear). Names
   * are what the user named: a relative path as typed, the base name of an absolute one, and for files
   * inside a directory the directory's base name and the path within it, never this machine's layout.
   */
  async list(): Promise<ServedFile[]> {
    const out: ServedFile[] = [];
    const named: NamedSource[] = [];
    for (const [n, root] of this.roots.entries()) {
      // Shared names (two `output.jsonl` named from two folders) take on their folders: see format/sourceNames.
      const parents = dirname(root.real).split(sep).filter(Boolean);
      if (root.kind === 'file') {
        const s = await lstat(root.real).catch(() => null);
        const name = isAbsolute(root.given) ? basename(root.given) : root.given;
        if (!s?.isFile()) continue;
        out.push({ id: `f${n}`, name, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
        named.push({ name, parents: isAbsolute(root.given) ? parents : [] });
        continue;
      }
      const traced = await root.trace?.current();
      if (traced) {
        // A trace directory is its converted copy alone: its event files are no file the page can read.
        const copy = traced.copy;
        if (copy) {
          out.push({ id: `t${n}`, name: copy.name, size: copy.size, mtimeMs: copy.mtimeMs, ino: copy.ino });
          named.push({ name: copy.name, parents });
        }
        continue;
      }
      for (const rel of await walk(root.real)) {
        const s = await lstat(join(root.real, ...rel)).catch(() => null);
        if (!s?.isFile()) continue;
        const id = `d${n}/${rel.map(encodeURIComponent).join('/')}`;
        const name = join(basename(root.given), ...rel);
        out.push({ id, name, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
        named.push({ name, parents });
      }
    }
    const names = distinctNames(named);
    return out.map((f, i) => ({ ...f, name: names[i] ?? f.name }));
  }

  /** Opens the file an id names, or null when the id names nothing this catalog serves (right now). */
  async open(id: string): Promise<OpenedFile | null> {
    const copy = /^t(\d+)$/.exec(id);
    if (copy) return (await this.roots[Number(copy[1])]?.trace?.open()) ?? null;
    const target = this.locate(id);
    if (target === null || this.roots[Number(/^d(\d+)\//.exec(id)?.[1])]?.trace?.traced) return null;
    const handle = await open(target.path, OPEN_FLAGS).catch(() => null);
    if (handle === null) return null;
    try {
      const s = await handle.stat();
      if (s.isFile() && (await reachesWithoutLinks(handle, target.root, target.rel, s))) {
        return { handle, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino };
      }
    } catch {
      // fall through: refused like anything else
    }
    await handle.close();
    return null;
  }

  /** The path an id names, checked as the list would list it (no dot-names, depth, extension). */
  private locate(id: string): { path: string; root: string; rel: string[] } | null {
    const m = /^(f|d)(\d+)(?:\/(.+))?$/.exec(id);
    if (!m) return null;
    const root = this.roots[Number(m[2])];
    if (!root) return null;
    if (m[1] === 'f') return root.kind === 'file' && m[3] === undefined ? { path: root.real, root: root.real, rel: [] } : null;
    if (root.kind !== 'dir' || m[3] === undefined) return null;
    let rel: string[];
    try {
      rel = m[3].split('/').map((p) => decodeURIComponent(p));
    } catch {
      return null;
    }
    const bad = (p: string) => p === '' || p.startsWith('.') || p.includes('/') || p.includes(sep) || p.includes('\0');
    if (rel.length > MAX_DEPTH + 1 || rel.some(bad) || !isTrajectoryFile(rel[rel.length - 1] ?? '')) return null;
    return { path: join(root.real, ...rel), root: root.real, rel };
  }
}

/** The served files under a directory, as path parts, sorted: real subdirectories only, no dot-names. */
async function walk(root: string): Promise<string[][]> {
  const out: string[][] = [];
  // Depth-first with an explicit stack (in name order): the depth is bounded, and nothing recurses.
  const stack: string[][] = [[]];
  while (stack.length > 0) {
    const rel = stack.pop() ?? [];
    const entries = await readdir(join(root, ...rel), { withFileTypes: true }).catch(() => []);
    const dirs: string[][] = [];
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (e.name.startsWith('.')) continue;
      if (e.isDirectory() && rel.length < MAX_DEPTH) dirs.push([...rel, e.name]);
      else if (e.isFile() && isTrajectoryFile(e.name)) out.push([...rel, e.name]);
    }
    for (const d of dirs.reverse()) stack.push(d);
  }
  return out.sort((a, b) => cmpParts(a, b));
}

function cmpParts(a: string[], b: string[]): number {
  const x = a.join('\0');
  const y = b.join('\0');
  return x < y ? -1 : x > y ? 1 : 0;
}
