import { createTwoFilesPatch } from 'diff';

/**
 * A git-style unified diff of every changed file, in file-name order; empty when nothing changed.
 * Shared by the environment (what finish submits) and its tests; the grader applies it with `diff`.
 */
export function repoDiff(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string {
  let out = '';
  for (const [name, old] of [...before].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const now = after.get(name) ?? old;
    if (now === old) continue;
    const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, old, now, undefined, undefined, { context: 3 });
    // createTwoFilesPatch opens with a line of '=' signs; a git header names the file instead.
    out += patch.replace(/^=+\n/, `diff --git a/${name} b/${name}\n`);
  }
  return out;
}
