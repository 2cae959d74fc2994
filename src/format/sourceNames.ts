/**
 * A source's name is what findings, problems and the run list show, and the file part of the ids of rollouts
 * whose format has none (`file:line`, adapters/read.ts `locator`). Two sources with one name would give
 * their rollouts the same ids: false E_DUPLICATE_ROLLOUT and one row hiding another (issue 31, two
 * `output.jsonl` from two folders). So the names of one load are made distinct here, once, for the
 * server's list and the page's sources alike.
 */
export interface NamedSource {
  /** The name as it would be shown alone. */
  name: string;
  /** The folders above it, nearest last (`['runs', 'a']` for `runs/a/output.jsonl`); may be empty. */
  parents: readonly string[];
}

/**
 * Distinct names in order: a name used once is kept as it is; names shared are lengthened by their nearest
 * folders, one at a time, until they differ (as an editor names two open `index.ts` tabs); any still equal
 * when the folders run out are numbered, "name (2)".
 */
export function distinctNames(sources: readonly NamedSource[]): string[] {
  const names = sources.map((s) => s.name);
  const used = sources.map(() => 0);
  for (;;) {
    let grew = false;
    for (const same of sharedNames(names)) {
      for (const i of same) {
        const parents = sources[i]?.parents ?? [];
        const next = parents[parents.length - 1 - (used[i] ?? 0)];
        if (next === undefined || next === '') continue;
        names[i] = `${next}/${names[i]}`;
        used[i] = (used[i] ?? 0) + 1;
        grew = true;
      }
    }
    if (!grew) break;
  }
  const taken = new Set<string>();
  return names.map((name) => {
    let out = name;
    for (let n = 2; taken.has(out); n++) out = `${name} (${n})`;
    taken.add(out);
    return out;
  });
}

/** The indexes of each name that occurs more than once. */
function sharedNames(names: readonly string[]): number[][] {
  const at = new Map<string, number[]>();
  names.forEach((name, i) => {
    const list = at.get(name);
    if (list) list.push(i);
    else at.set(name, [i]);
  });
  return [...at.values()].filter((list) => list.length > 1);
}
