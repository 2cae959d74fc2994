import { isRecord } from '../read';

/*
 * The paths a field mapping writes (schema.ts): dot-separated keys, with numbers for array elements.
 */

/** The value at a dot-separated path (`a.b.0.c`), or undefined. */
export function at(value: unknown, path: string | undefined): unknown {
  if (path === undefined) return undefined;
  // Most paths are one key, read for every message: not split into a list first.
  if (!path.includes('.')) return child(value, path);
  let v: unknown = value;
  for (const key of path.split('.')) {
    v = child(v, key);
    if (v === undefined) return undefined;
  }
  return v;
}

const INDEX = /^\d+$/;

function child(v: unknown, key: string): unknown {
  if (Array.isArray(v)) return INDEX.test(key) ? v[Number(key)] : undefined;
  return isRecord(v) && Object.hasOwn(v, key) ? v[key] : undefined;
}
