import { chunkedArray } from './chunked';
import { type FindingGroup, groupFindings, rememberFindingGroups, type SeverityCounts } from './findingGroups';
import type { Finding, FindingCode, Severity } from './types';

/*
 * A huge rollout's findings as columns, for the trip from the load worker to the page (docs/adr/0019).
 * A 1,000,000-step rollout had 1,999,982 findings: as objects on the page, four million live objects
 * (each finding and its message) that every major collection marks, 29-47 ms a time, long tasks while
 * the page opens its views. As columns they are a few typed arrays, transferred, not copied; the page
 * reads them through a `chunkedArray`, so every reader of `summary.findings` works unchanged and a
 * finding becomes an object only while a view shows it.
 */

/** A findings array as plain data: what a structured clone carries cheaply. */
export interface PackedFindings {
  length: number;
  /** Findings per chunk: a chunk's messages are decoded together. */
  per: number;
  /** The distinct code and severity pairs; `kind[i]` is finding i's. */
  kinds: { code: FindingCode; severity: Severity }[];
  kind: Uint16Array;
  /** Finding i's step and segment, -1 for null. */
  step: Int32Array;
  segment: Int32Array;
  /** Each chunk's messages as the UTF-8 of a JSON array of strings, back to back; chunk c ends at `ends[c]`. */
  text: Uint8Array;
  ends: Float64Array;
  /** What the page would otherwise make in a pass over every finding. */
  groups: FindingGroup[];
  counts: SeverityCounts;
}

const PER = 1024;
const MAX_KINDS = 0xffff;

/** A place as a column value: null is -1; undefined when it is neither null nor an int32 at least 0. */
function place(v: number | null): number | undefined {
  if (v === null) return -1;
  return Number.isInteger(v) && v >= 0 && v <= 0x7fffffff ? v : undefined;
}

/**
 * The findings as columns, or null when one does not fit them (a place that is not a whole number, or
 * more distinct codes than a column holds): those stay objects.
 */
export function packFindings(findings: readonly Finding[]): PackedFindings | null {
  const length = findings.length;
  const kind = new Uint16Array(length);
  const step = new Int32Array(length);
  const segment = new Int32Array(length);
  const kinds: PackedFindings['kinds'] = [];
  const kindOf = new Map<string, number>();
  // Severities are counted as findings are packed: the page's counts, without a pass of their own.
  const counts: SeverityCounts = { errors: 0, warnings: 0 };
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const ends = new Float64Array(Math.ceil(length / PER));
  let bytes = 0;
  for (let from = 0, c = 0; from < length; from += PER, c++) {
    const messages: string[] = [];
    for (let i = from; i < Math.min(length, from + PER); i++) {
      const f = findings[i] as Finding;
      const key = `${f.code} ${f.severity}`;
      let k = kindOf.get(key);
      if (k === undefined) {
        if (kinds.length === MAX_KINDS) return null;
        k = kinds.length;
        kinds.push({ code: f.code, severity: f.severity });
        kindOf.set(key, k);
      }
      const s = place(f.step);
      const g = place(f.segment);
      if (s === undefined || g === undefined) return null;
      if (f.severity === 'error') counts.errors++;
      else if (f.severity === 'warning') counts.warnings++;
      kind[i] = k;
      step[i] = s;
      segment[i] = g;
      messages.push(f.message);
    }
    const part = encoder.encode(JSON.stringify(messages));
    parts.push(part);
    bytes += part.length;
    ends[c] = bytes;
  }
  const text = new Uint8Array(bytes);
  let at = 0;
  for (const part of parts) {
    text.set(part, at);
    at += part.length;
  }
  return { length, per: PER, kinds, kind, step, segment, text, ends, groups: groupFindings(findings), counts };
}

/** The buffers of a packed array, to transfer rather than copy. */
export function packedBuffers(p: PackedFindings): ArrayBuffer[] {
  return [p.kind, p.step, p.segment, p.text, p.ends].map((a) => a.buffer as ArrayBuffer);
}

const columns = new WeakMap<readonly Finding[], PackedFindings>();

/**
 * The findings again, as a read-only array whose items are made a chunk at a time when read (equal to
 * the packed ones, not the same objects), with their groups and counts known.
 */
export function unpackFindings(p: PackedFindings): readonly Finding[] {
  const decoder = new TextDecoder();
  const findings = chunkedArray(p.length, p.per, (c) => {
    const from = c * p.per;
    const messages = JSON.parse(decoder.decode(p.text.subarray(c === 0 ? 0 : p.ends[c - 1], p.ends[c]))) as string[];
    return messages.map((message, j): Finding => {
      const i = from + j;
      const k = p.kinds[p.kind[i] as number] as PackedFindings['kinds'][number];
      const step = p.step[i] as number;
      const segment = p.segment[i] as number;
      return { code: k.code, severity: k.severity, segment: segment < 0 ? null : segment, step: step < 0 ? null : step, message };
    });
  });
  rememberFindingGroups(findings, p.groups, p.counts);
  columns.set(findings, p);
  return findings;
}

/**
 * Every finding's step and segment as columns (-1 for null), for a pass that needs only places: known
 * for a packed array, undefined for any other (read its items).
 */
export function findingPlaces(findings: readonly Finding[]): { step: Int32Array; segment: Int32Array } | undefined {
  return columns.get(findings);
}

/** The findings whose code is one of `codes`, in order; a packed array's are found in its columns. */
export function findingsWithCodes(findings: readonly Finding[], codes: readonly FindingCode[]): Finding[] {
  const p = columns.get(findings);
  if (!p) return findings.filter((f) => codes.includes(f.code));
  const wanted = new Set(p.kinds.flatMap((k, i) => (codes.includes(k.code) ? [i] : [])));
  const out: Finding[] = [];
  if (wanted.size === 0) return out;
  for (let i = 0; i < p.length; i++) if (wanted.has(p.kind[i] as number)) out.push(findings[i] as Finding);
  return out;
}
