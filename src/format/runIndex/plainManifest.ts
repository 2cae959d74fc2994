import { indexPathProblem } from './indexPaths';
import type { RunManifest } from './manifest';

/*
 * A fast path in front of the manifest's zod schema, as fastCheck.ts is for a rollout. The run page reads
 * the manifest before it asks for any shard, and building the schema (with the field mapping's) and zod's
 * first parse took 70-180 ms of the page's thread there on this machine, for 1.5 KB of JSON: time between
 * the manifest's answer and the first shard's request, so before the first chart (issue 25).
 * `plainManifest` answers only "certainly valid": it returns the parsed value when it is exactly what the
 * schema would return (no key the schema would drop, every value as the schema wants it), and null
 * otherwise, when zod reads it and names what is wrong. A mapping or a converted directory goes to zod.
 * It may be stricter than the schema, never looser: manifest.test.ts holds it to that.
 */

type Obj = Record<string, unknown>;

/** A plain object with no key outside `keys` (zod drops unknown keys; its answer would differ). */
function only(v: unknown, keys: ReadonlySet<string>): v is Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  // JSON.parse makes "__proto__" an own key like any other: not in `keys`, so left to zod too.
  for (const k of Object.keys(v)) if (!keys.has(k)) return false;
  return true;
}
const int = (v: unknown, min: number): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= min;
const optInt = (v: unknown, min: number): boolean => v === undefined || int(v, min);
const str = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';

const TOP = new Set(['version', 'source_base', 'options', 'files']);
const FILE = new Set([
  'file',
  'size',
  'mtime_ms',
  'gzip',
  'shards',
  'parse_errors',
  'lines',
  'format',
  'complete_lines',
  'complete_bytes',
  'check',
  'policy_versions',
  'unstepped',
]);
const SHARD = new Set(['path', 'rows', 'from_line', 'to_line', 'from_byte', 'to_byte', 'bytes']);
const PARSE_ERROR = new Set(['line', 'code', 'message']);

function isShard(s: unknown): boolean {
  return (
    only(s, SHARD) &&
    str(s.path) &&
    indexPathProblem(s.path) === null &&
    int(s.rows, 0) &&
    int(s.from_line, 1) &&
    int(s.to_line, 0) &&
    int(s.from_byte, 0) &&
    int(s.to_byte, 0) &&
    optInt(s.bytes, 1)
  );
}

function isFile(f: unknown): boolean {
  return (
    only(f, FILE) &&
    str(f.file) &&
    f.file.length > 0 &&
    int(f.size, 0) &&
    typeof f.mtime_ms === 'number' &&
    Number.isFinite(f.mtime_ms) &&
    typeof f.gzip === 'boolean' &&
    Array.isArray(f.shards) &&
    f.shards.every(isShard) &&
    Array.isArray(f.parse_errors) &&
    f.parse_errors.every((e) => only(e, PARSE_ERROR) && int(e.line, 1) && str(e.code) && str(e.message)) &&
    optInt(f.lines, 0) &&
    (f.format === undefined || f.format === null || str(f.format)) &&
    optInt(f.complete_lines, 0) &&
    optInt(f.complete_bytes, 0) &&
    optStr(f.check) &&
    (f.policy_versions === undefined || (Array.isArray(f.policy_versions) && f.policy_versions.every(str))) &&
    optInt(f.unstepped, 0)
  );
}

/** The manifest itself when it certainly matches the schema as it is, else null (then zod reads it). */
export function plainManifest(body: unknown): RunManifest | null {
  const ok =
    only(body, TOP) &&
    body.version === 1 &&
    str(body.source_base) &&
    optStr(body.options) &&
    Array.isArray(body.files) &&
    body.files.every(isFile);
  return ok ? (body as RunManifest) : null;
}
