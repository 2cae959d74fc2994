import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/*
 * Published files from repositories fetched into this machine's snapshot store (the search tool's `fetch`),
 * read in place through git: never copied into the project or committed. Tests that use them skip with a
 * reason where the snapshot is absent (CI, another machine), as the tests on ../shared/real-data do.
 */
const MIRROR = process.env.TRAJSCOPE_FETCHED ?? resolve(__dirname, '../../../.mirror');

/** The git directory of a fetched repository ("owner/name"), or null when it is not here. */
function fetchedRepo(repo: string): string | null {
  const dir = resolve(MIRROR, repo.replace('/', '+'), 'repo');
  return existsSync(dir) ? dir : null;
}

/** Why a test on this repository's files is skipped, or null when they are here. */
export function fetchedMissing(repo: string): string | null {
  return fetchedRepo(repo) ? null : `${repo} is not fetched here (${MIRROR}): tests on its published files skipped`;
}

/** Paths of the fetched repository's newest commit that match `pattern`, sorted. */
export function fetchedPaths(repo: string, pattern: RegExp): string[] {
  const dir = fetchedRepo(repo);
  if (!dir) return [];
  const out = execFileSync('git', ['--git-dir', dir, 'ls-tree', '-r', '--name-only', 'HEAD'], { maxBuffer: 64 << 20 });
  return out
    .toString('utf8')
    .split('\n')
    .filter((p) => p !== '' && pattern.test(p))
    .sort();
}

/** The bytes of one file of the fetched repository's newest commit. */
export function fetchedFile(repo: string, path: string): Buffer {
  const dir = fetchedRepo(repo);
  if (!dir) throw new Error(`${repo} is not fetched`);
  return execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${path}`], { maxBuffer: 256 << 20 });
}

/** Why a test on this repository's files at `commit` is skipped (the repository or that commit is not here), or null. */
export function fetchedMissingAt(repo: string, commit: string): string | null {
  const missing = fetchedMissing(repo);
  if (missing !== null) return missing;
  try {
    execFileSync('git', ['--git-dir', fetchedRepo(repo) ?? '', 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' });
    return null;
  } catch {
    return `${repo} is fetched here without commit ${commit}: tests on its files there skipped`;
  }
}

/**
 * One folder of a fetched repository at a commit (default its newest), read in place: its files' paths
 * relative to the folder, sorted, and a reader of one of them.
 */
export function fetchedFolder(repo: string, folder: string, commit = 'HEAD'): { files: string[]; read: (path: string) => Buffer } {
  const dir = fetchedRepo(repo);
  if (!dir) throw new Error(`${repo} is not fetched`);
  const out = execFileSync('git', ['--git-dir', dir, 'ls-tree', '-r', '--name-only', commit, '--', `${folder}/`], { maxBuffer: 64 << 20 });
  const files = out
    .toString('utf8')
    .split('\n')
    .filter((p) => p !== '')
    .map((p) => p.slice(folder.length + 1))
    .sort();
  const read = (path: string) => execFileSync('git', ['--git-dir', dir, 'show', `${commit}:${folder}/${path}`], { maxBuffer: 256 << 20 });
  return { files, read };
}

/**
 * A fetched folder written out to a new temporary directory, for a test that must read real files through
 * the file system (never into the project); `remove()` deletes it.
 */
export function materializeFetched(repo: string, folder: string, commit = 'HEAD'): { dir: string; remove: () => void } {
  const { files, read } = fetchedFolder(repo, folder, commit);
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-fetched-'));
  for (const path of files) {
    const to = join(dir, ...path.split('/'));
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, read(path));
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
