import { parseJson } from '../../json';
import { isRecord, type Json, list, rec } from '../read';

/*
 * OpenTelemetry attribute values, as they are written in the two shapes Trajscope reads: OTLP JSON
 * (`[{key, value: {stringValue | intValue | doubleValue | boolValue | arrayValue | kvlistValue | bytesValue}}]`,
 * opentelemetry-proto `common.proto`; 64-bit `intValue` written as a string) and the flat
 * `{"key": value}` maps of SDK console/file exporters and span stores. Every attribute a reader uses
 * is marked, so what is left (`unused`) goes under `extra` and nothing is lost.
 */

/** One OTLP AnyValue as a plain JSON value; an empty AnyValue (no field set) is null. */
function anyValue(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const s = v.stringValue ?? v.string_value;
  if (s !== undefined) return s;
  const b = v.boolValue ?? v.bool_value;
  if (b !== undefined) return b;
  const i = v.intValue ?? v.int_value;
  if (i !== undefined) {
    // int64 is written as a string; a number beyond 2^53 keeps its digits as text rather than lose them.
    if (typeof i === 'string' && /^-?\d+$/.test(i)) return Number.isSafeInteger(Number(i)) ? Number(i) : i;
    return i;
  }
  const d = v.doubleValue ?? v.double_value;
  if (d !== undefined) return typeof d === 'string' && Number.isFinite(Number(d)) ? Number(d) : d;
  const a = v.arrayValue ?? v.array_value;
  if (a !== undefined) return (list(rec(a)?.values) ?? []).map(anyValue);
  const kv = v.kvlistValue ?? v.kvlist_value;
  if (kv !== undefined) return keyValues(rec(kv)?.values);
  const bytes = v.bytesValue ?? v.bytes_value;
  if (bytes !== undefined) return bytes;
  return Object.keys(v).length === 0 ? null : v;
}

/** An OTLP KeyValue list as a map (a later duplicate key wins, as in the SDKs). */
function keyValues(v: unknown): Json {
  const entries: [string, unknown][] = [];
  for (const kv of list(v) ?? []) {
    if (isRecord(kv) && typeof kv.key === 'string') entries.push([kv.key, anyValue(kv.value)]);
  }
  // fromEntries defines own properties: a key named `__proto__` stays data.
  return Object.fromEntries(entries);
}

/** Attributes in either shape (a KeyValue list or a flat map) as a flat map. */
export function attributeMap(v: unknown): Json {
  if (Array.isArray(v)) return keyValues(v);
  return isRecord(v) ? { ...v } : {};
}

/** Keys no reader may use as a path segment: they would reach the prototype. */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

function assignPath(root: Json, path: readonly string[], value: unknown): boolean {
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i] as string;
    if (UNSAFE.has(k)) return false;
    const next = node[k];
    if (isRecord(next)) node = next;
    else if (next === undefined) {
      const created: Json = {};
      node[k] = created;
      node = created;
    } else return false; // `a` and `a.b` both set: the scalar keeps its key, the deeper one stays unused
  }
  const last = path[path.length - 1] as string;
  if (UNSAFE.has(last) || last in node) return false;
  node[last] = value;
  return true;
}

/** Objects whose keys are all indices become arrays (in index order), recursively. */
function arrays(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((a, b) => a - b)
      .map((k) => arrays(v[String(k)]));
  }
  for (const k of keys) v[k] = arrays(v[k]);
  return v;
}

/** An object's dotted keys expanded into nested objects (`{"message.role": "user"}` → `{message: {role: "user"}}`). */
export function expandDotted(obj: Json): Json {
  const root: Json = {};
  for (const [k, v] of Object.entries(obj)) assignPath(root, k.split('.'), v);
  return arrays(root) as Json;
}

/** The attributes of one span or event, with the keys readers have used. */
export class Attrs {
  private readonly used = new Set<string>();
  constructor(readonly values: Json) {}

  has(key: string): boolean {
    return Object.hasOwn(this.values, key);
  }

  /** The value (marked used), or undefined. */
  get(key: string): unknown {
    if (!this.has(key)) return undefined;
    this.used.add(key);
    return this.values[key];
  }

  str(key: string): string | undefined {
    const v = this.values[key];
    if (typeof v !== 'string' || !this.has(key)) return undefined;
    this.used.add(key);
    return v;
  }

  /** A number, or an integer written as a decimal string (exporters that stringify int64). */
  num(key: string): number | undefined {
    const v = this.values[key];
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
    if (n === undefined || !Number.isFinite(n) || !this.has(key)) return undefined;
    this.used.add(key);
    return n;
  }

  /** A value that may be written as JSON text (messages, arguments): parsed when it is JSON, else as written. */
  json(key: string): unknown {
    const v = this.get(key);
    return typeof v === 'string' ? parseOrText(v) : v;
  }

  /**
   * The values under `prefix.N.…` (flattened lists: `llm.input_messages.0.message.role`,
   * `gen_ai.prompt.1.content`) as an array of nested objects, or undefined when there are none. Only
   * keys whose first segment after the prefix is an index are read.
   */
  indexed(prefix: string): unknown[] | undefined {
    const root: Json = {};
    const start = `${prefix}.`;
    for (const key of Object.keys(this.values)) {
      if (!key.startsWith(start)) continue;
      const path = key.slice(start.length).split('.');
      if (!/^\d{1,6}$/.test(path[0] as string)) continue;
      if (assignPath(root, path, this.values[key])) this.used.add(key);
    }
    if (Object.keys(root).length === 0) return undefined;
    const out = arrays(root);
    return Array.isArray(out) ? out : undefined;
  }

  /** The values under `prefix.…` as one nested object (`llm.token_count.prompt_details.cache_read`). */
  nested(prefix: string): Json | undefined {
    const root: Json = {};
    const start = `${prefix}.`;
    for (const key of Object.keys(this.values)) {
      if (key.startsWith(start) && assignPath(root, key.slice(start.length).split('.'), this.values[key])) this.used.add(key);
    }
    return Object.keys(root).length > 0 ? (arrays(root) as Json) : undefined;
  }

  /** The attributes no reader used, or undefined when none are left. */
  unused(): Json | undefined {
    const kept = Object.entries(this.values).filter(([k]) => !this.used.has(k));
    return kept.length > 0 ? Object.fromEntries(kept) : undefined;
  }
}

/** JSON text parsed, or the text itself when it is not JSON (a plain-text message, a result). */
export function parseOrText(v: string): unknown {
  const t = v.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[') && !t.startsWith('"')) return v;
  try {
    return parseJson(v);
  } catch {
    return v;
  }
}

/** A value as text: strings as written, anything else as JSON. */
export function asText(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}
