import { JsonTooDeepError, MAX_JSON_DEPTH, nestsDeeperThan } from '../json';
import type { LineResult } from '../jsonl';
import { convertValue } from './convertValue';
import { describeValue, detectFormat, isMessageArray } from './detect';
import { FORMAT_INFO } from './formatInfo';
import type { FieldMapping } from './mapping/schema';
import type { FormatId } from './types';

/** How a file is read: its format (`auto` detects it) and what the caller found beside it. */
export interface ParseOptions {
  from?: FormatId | 'auto';
  /** A verifiers `metadata.json` (parsed), used when the file is verifiers results. */
  metadata?: unknown;
  /** Bytes a multi-line JSON document may take before reading stops (default WHOLE_FILE_LIMIT). */
  wholeFileLimit?: number;
  /** Reads every record through this field mapping (the `mapped` format) instead of detecting one. */
  mapping?: FieldMapping;
}

export interface WholeFileResult {
  results: LineResult[];
  /** The format read, or null when the file held no JSON object (or none of a known format). */
  format: FormatId | null;
  /** The document parsed but is of no known format: what it looks like (the caller says it once). */
  unsupported: string | null;
  /** Lines in the text, counted as the JSONL reader counts them. */
  lines: number;
}

export function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.length > 0 && !text.endsWith('\n') ? n + 1 : n;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The 1-based line on which each element of the top-level array starting at `open` begins, found by one
 * pass that tracks strings and nesting, so each record of an array file keeps a true line number.
 */
export function arrayElementLines(text: string, open: number): number[] {
  const lines: number[] = [];
  let line = lineAt(text, open);
  let depth = 0;
  let inString = false;
  let escaped = false;
  let expecting = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    if (depth === 1 && expecting && c !== ']') {
      lines.push(line);
      expecting = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expecting = true;
    } else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) break;
    } else if (c === ',' && depth === 1) expecting = true;
  }
  return lines;
}

/**
 * Reads a whole JSON document (SWE-agent `.traj`, an rLLM episode file, or an array of records) into
 * line results. Node-free: the browser can call it on text it already holds. Each record is placed on the
 * line its value starts on; a document that is not valid JSON is one E_PARSE.
 */
export function parseWholeFile(text: string, file: string, options: ParseOptions = {}): WholeFileResult {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = countLines(body);
  const start = body.search(/\S/);
  if (start === -1) return { results: [], format: null, lines, unsupported: null };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const position = Number(/position (\d+)/.exec(message)?.[1]);
    // An error at the very end (an unclosed document) is on the last line, never one past it.
    const line = Math.min(Number.isFinite(position) ? lineAt(body, position) : lineAt(body, start), Math.max(lines, 1));
    return {
      results: [{ kind: 'error', value: { file, line, code: 'E_PARSE', message: `not valid JSON: ${message}` } }],
      format: null,
      lines,
      unsupported: null,
    };
  }
  const forced = options.mapping ? 'mapped' : options.from && options.from !== 'auto' ? options.from : null;
  const format = forced ?? detectFormat({ name: file, values: [value] });
  if (format === null) return { results: [], format: null, lines, unsupported: describeValue(value) };
  const base = { file, metadata: options.metadata, mapping: options.mapping };
  // Too deep is judged per record (an array's element), so one deep record costs only itself.
  const tooDeep = (line: number): LineResult[] => [
    { kind: 'error', value: { file, line, code: 'E_PARSE', message: new JsonTooDeepError(MAX_JSON_DEPTH).message } },
  ];
  const convertOne = (v: unknown, line: number): LineResult[] =>
    nestsDeeperThan(v, MAX_JSON_DEPTH) ? tooDeep(line) : convertValue(format, v, { ...base, line });
  const wrap = FORMAT_INFO[format].wholeArray;
  if (Array.isArray(value) && wrap) {
    // A format whose whole array is one value (an OpenHands event list, a trace's spans): converted once, wrapped.
    return { results: convertOne({ [wrap]: value }, lineAt(body, start)), format, lines, unsupported: null };
  }
  // The older mini-swe-agent trajectory is a bare array of chat messages: one conversation, one record.
  if (format === 'mini-swe-agent' && isMessageArray(value)) {
    return { results: convertOne({ messages: value }, lineAt(body, start)), format, lines, unsupported: null };
  }
  if (Array.isArray(value)) {
    const at = arrayElementLines(body, start);
    const results = value.flatMap((element, i) => convertOne(element, at[i] ?? lineAt(body, start)));
    return { results, format, lines, unsupported: null };
  }
  return { results: convertOne(value, lineAt(body, start)), format, lines, unsupported: null };
}
