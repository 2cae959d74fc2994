import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

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
