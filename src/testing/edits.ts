import fc from 'fast-check';

/** Helpers of the property tests that hold a fast path to its zod schema (fastCheck.ts, plainManifest.ts). */

/** Every path to a value inside `v`, the root's (`[]`) first. */
export function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [at];
  if (Array.isArray(v)) {
    v.forEach((x, i) => {
      out.push(...paths(x, [...at, i]));
    });
  } else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) out.push(...paths(x, [...at, k]));
  return out;
}

/** A copy of `root` with the value at `path` set to `value` (undefined removes it); throws when the path is gone. */
function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root);
  if (path.length === 0) return value;
  let node = copy as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  // JSON has no holes in arrays: removing an element shortens the array.
  if (value === undefined && Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
  else if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/**
 * `root` after one to three random edits, each setting one of `spots` to a `value` (undefined removes it),
 * in order; undefined when an edit's path was gone after an earlier one (the property skips that case).
 */
export function edited(root: unknown, spots: (string | number)[][], value: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.array(fc.tuple(fc.constantFrom(...spots), value), { minLength: 1, maxLength: 3 }).map((edits) => {
    let x = root;
    for (const [path, v] of edits) {
      try {
        x = setAt(x, path, v);
      } catch {
        return undefined;
      }
    }
    return x;
  });
}
