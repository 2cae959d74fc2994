import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, isAbsolute, join, relative, sep } from 'node:path';
import type { ServedFile } from '../../format';

export type { ServedFile };

/** What a served directory lists: the files the readers take (an Inspect `.eval` is a zip, told by its bytes). */
const TRAJECTORY_FILE = /\.(jsonl|jsonl\.gz|json|traj|eval)$/i;
const MAX_DEPTH = 4;

interface Root {
  kind: 'file' | 'dir';
  given: string;
  real: string;
}

/**
 * The named paths and nothing else. Every lookup resolves symlinks and checks the real path is the named
 * file or lies inside a named directory, so `..`, encoded dots, absolute paths and links leading out all
 * fail the same way: not found.
 */
export class Catalog {
  private constructor(private readonly roots: Root[]) {}

  /** Checks every path exists; rejects with a message naming the first that does not. */
  static async open(paths: string[]): Promise<Catalog> {
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
    return new Catalog(roots);
  }

  /** Every served file as it is now (a directory is listed afresh each time, so new files appear). */
  async list(): Promise<ServedFile[]> {
    const out: ServedFile[] = [];
    for (const [n, root] of this.roots.entries()) {
      if (root.kind === 'file') {
        const s = await stat(root.real).catch(() => null);
        if (s?.isFile()) out.push({ id: `f${n}`, name: root.given, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
        continue;
      }
      for (const rel of await walk(root.real, '', 0)) {
        const id = `d${n}/${rel.split(sep).map(encodeURIComponent).join('/')}`;
        const file = await this.resolve(id);
        const s = file === null ? null : await stat(file).catch(() => null);
        if (s?.isFile()) out.push({ id, name: join(basename(root.given), rel), size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
      }
    }
    return out;
  }

  /** The real path behind an id, or null when the id names nothing this catalog serves. */
  async resolve(id: string): Promise<string | null> {
    const m = /^(f|d)(\d+)(?:\/(.+))?$/.exec(id);
    if (!m) return null;
    const root = this.roots[Number(m[2])];
    if (!root) return null;
    if (m[1] === 'f') return root.kind === 'file' && m[3] === undefined ? root.real : null;
    if (root.kind !== 'dir' || m[3] === undefined) return null;
    let rel: string;
    try {
      rel = m[3]
        .split('/')
        .map((p) => decodeURIComponent(p))
        .join(sep);
    } catch {
      return null;
    }
    if (rel.includes('\0') || isAbsolute(rel) || !TRAJECTORY_FILE.test(rel)) return null;
    let real: string;
    try {
      real = await realpath(join(root.real, rel));
    } catch {
      return null;
    }
    const inside = relative(root.real, real);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null;
    return real;
  }
}

async function walk(dir: string, rel: string, depth: number): Promise<string[]> {
  if (depth > MAX_DEPTH) return [];
  const entries = await readdir(join(dir, rel), { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (e.name.startsWith('.')) continue;
    const r = join(rel, e.name);
    if (e.isDirectory()) out.push(...(await walk(dir, r, depth + 1)));
    else if ((e.isFile() || e.isSymbolicLink()) && TRAJECTORY_FILE.test(e.name)) out.push(r);
  }
  return out;
}
