import { isRecord, type Json, list, rec, str } from '../read';
import { ConvertError } from '../types';
import { Attrs, attributeMap } from './attributes';

/*
 * One span, whatever exporter wrote it: OTLP JSON (`traceId`, `spanId`, `parentSpanId`,
 * `startTimeUnixNano`, `status.code` 0/1/2 or `STATUS_CODE_*`, attributes as a KeyValue list), the
 * Python SDK's `ReadableSpan.to_json()` / ConsoleSpanExporter (`context.trace_id` as `0x…` hex,
 * `parent_id`, ISO `start_time`, `status.status_code` `OK`/`ERROR`/`UNSET`, flat attributes), span
 * stores' REST shapes (Phoenix: `span_kind`, top-level `status_code`), and dumps that write ids and
 * times as integers (any-agent's `AgentTrace`: `parent.span_id`, nanosecond `start_time`).
 */

type SpanStatus = 'ok' | 'error' | 'unset';

export interface SpanEvent {
  name: string;
  time?: bigint;
  attrs: Attrs;
  /** The event's other fields (timestamps, dropped counts), kept under `extra`. */
  rest: Json;
  /** A reader took the whole event (a message event): it is not repeated under `extra`. */
  used?: boolean;
}

export interface Span {
  /** Position in the input (file order breaks start-time ties). */
  index: number;
  traceId?: string;
  spanId?: string;
  parentId?: string;
  name?: string;
  kind?: unknown;
  /** Top-level `span_kind` (Phoenix), read like `openinference.span.kind`. */
  spanKind?: string;
  start?: bigint;
  end?: bigint;
  startedAt?: string;
  endedAt?: string;
  status: SpanStatus;
  statusMessage?: string;
  attrs: Attrs;
  events: SpanEvent[];
  resource?: Json;
  scope?: Json;
  /** The span's fields no reader maps (links, flags, trace state, dropped counts). */
  rest: Json;
  /** An id was a JSON number beyond 2^53: its digits are those of the parsed number, not the file's. */
  impreciseId: boolean;
}

const FIELDS = [
  'traceId',
  'trace_id',
  'spanId',
  'span_id',
  'parentSpanId',
  'parent_span_id',
  'parent_id',
  'parentId',
  'parent',
  'context',
  'name',
  'kind',
  'span_kind',
  'startTimeUnixNano',
  'endTimeUnixNano',
  'start_time',
  'end_time',
  'startTime',
  'endTime',
  'status',
  'status_code',
  'status_message',
  'attributes',
  'events',
  'resource',
  'scope',
  'instrumentation_scope',
  'instrumentationScope',
  'instrumentationLibrary',
];

/** An id as a string: hex as written (without the `0x` the Python console exporter adds), or an integer. */
function idOfSpan(v: unknown): { id?: string; imprecise: boolean } {
  if (typeof v === 'string' && v !== '') {
    const hex = /^0x([0-9a-f]+)$/i.exec(v);
    return { id: hex ? (hex[1] as string).toLowerCase() : v, imprecise: false };
  }
  // Beyond 2^53 the parsed number is not the file's digits: written as JavaScript prints it (rounded
  // digits, or an exponent), never as made-up exact digits, and the record says so (`ids_imprecise`).
  if (typeof v === 'number' && Number.isInteger(v)) return { id: String(v), imprecise: !Number.isSafeInteger(v) };
  return { imprecise: false };
}

/** A time as nanoseconds since the epoch: OTLP decimal strings, integer ns/µs/ms/s, or ISO 8601. */
function nanos(v: unknown): bigint | undefined {
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return v === '0' ? undefined : BigInt(v);
    const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(.*)$/.exec(v);
    if (!m) return undefined;
    const ms = Date.parse(`${m[1]}${m[3] || 'Z'}`);
    if (Number.isNaN(ms)) return undefined;
    const frac = BigInt(`${m[2] ?? ''}000000000`.slice(0, 9));
    return BigInt(ms) * 1_000_000n + frac;
  }
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) {
    // Which unit an integer is in, by its size at today's dates (1.7e18 ns, 1.7e15 µs, 1.7e12 ms, 1.7e9 s).
    if (v >= 1e17) return BigInt(Math.round(v));
    if (v >= 1e14) return BigInt(Math.round(v)) * 1_000n;
    if (v >= 1e11) return BigInt(Math.round(v)) * 1_000_000n;
    return BigInt(Math.round(v * 1e6)) * 1_000n;
  }
  return undefined;
}

function iso(raw: unknown, ns: bigint | undefined): string | undefined {
  if (typeof raw === 'string' && /T\d{2}:\d{2}/.test(raw)) return raw;
  if (ns === undefined) return undefined;
  const d = new Date(Number(ns / 1_000_000n));
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function statusOf(raw: Json): { status: SpanStatus; message?: string } {
  const s = rec(raw.status);
  const code = s ? (s.code ?? s.status_code ?? s.statusCode) : raw.status_code;
  const message = str(s?.message) ?? str(s?.description) ?? str(raw.status_message);
  const text = typeof code === 'string' ? code.toUpperCase() : code;
  let status: SpanStatus = 'unset';
  if (text === 2 || (typeof text === 'string' && text.endsWith('ERROR'))) status = 'error';
  else if (text === 1 || (typeof text === 'string' && text.endsWith('OK'))) status = 'ok';
  return { status, message: message === '' ? undefined : message };
}

function eventOf(raw: unknown, path: string): SpanEvent {
  if (!isRecord(raw)) throw new ConvertError(`${path}: expected a span event object`);
  const { name, attributes, ...rest } = raw;
  const time = nanos(raw.timeUnixNano ?? raw.time_unix_nano ?? raw.timestamp ?? raw.time);
  return { name: typeof name === 'string' ? name : '', time, attrs: new Attrs(attributeMap(attributes)), rest };
}

/** Reads one span object; `path` names it in errors. */
export function readSpan(raw: unknown, index: number, path: string): Span {
  if (!isRecord(raw)) throw new ConvertError(`${path}: expected a span object`);
  const context = rec(raw.context);
  const parent = raw.parent;
  const trace = idOfSpan(raw.traceId ?? raw.trace_id ?? context?.trace_id ?? context?.traceId);
  const span = idOfSpan(raw.spanId ?? raw.span_id ?? context?.span_id ?? context?.spanId);
  const parentRaw = isRecord(parent)
    ? (parent.span_id ?? parent.spanId)
    : (raw.parentSpanId ?? raw.parent_span_id ?? raw.parent_id ?? raw.parentId ?? parent);
  const parentId = idOfSpan(parentRaw);
  const startRaw = raw.startTimeUnixNano ?? raw.start_time ?? raw.startTime;
  const endRaw = raw.endTimeUnixNano ?? raw.end_time ?? raw.endTime;
  const start = nanos(startRaw);
  const end = nanos(endRaw);
  const { status, message } = statusOf(raw);
  const resource = rec(raw.resource);
  const scope = rec(raw.scope) ?? rec(raw.instrumentation_scope) ?? rec(raw.instrumentationScope) ?? rec(raw.instrumentationLibrary);
  const rest = Object.fromEntries(Object.entries(raw).filter(([k]) => !FIELDS.includes(k)));
  return {
    index,
    traceId: trace.id,
    spanId: span.id,
    parentId: parentId.id,
    name: str(raw.name),
    kind: raw.kind,
    spanKind: str(raw.span_kind),
    start,
    end,
    startedAt: iso(startRaw, start),
    endedAt: iso(endRaw, end),
    status,
    statusMessage: message,
    attrs: new Attrs(attributeMap(raw.attributes)),
    events: (list(raw.events) ?? []).map((e, i) => eventOf(e, `${path}.events[${i}]`)),
    resource: resource ? attributeMap(resource.attributes ?? resource) : undefined,
    scope,
    rest,
    impreciseId: trace.imprecise || span.imprecise || parentId.imprecise,
  };
}

/**
 * The spans of an OTLP JSON export (`ExportTraceServiceRequest`: `resourceSpans[].scopeSpans[].spans[]`,
 * or the older `instrumentationLibrarySpans`), each with its resource and scope attached as `resource`
 * and `scope`, so spans gathered from several exports (one per line) can be converted together.
 */
export function otlpSpans(doc: Json): Json[] {
  const out: Json[] = [];
  (list(doc.resourceSpans) ?? []).forEach((rsRaw, i) => {
    const rs = rec(rsRaw);
    if (!rs) throw new ConvertError(`resourceSpans[${i}]: expected an object`);
    const groups = list(rs.scopeSpans) ?? list(rs.instrumentationLibrarySpans) ?? [];
    groups.forEach((ssRaw, j) => {
      const ss = rec(ssRaw);
      if (!ss) throw new ConvertError(`resourceSpans[${i}].scopeSpans[${j}]: expected an object`);
      const scope = ss.scope ?? ss.instrumentationLibrary;
      (list(ss.spans) ?? []).forEach((span, k) => {
        if (!isRecord(span)) throw new ConvertError(`resourceSpans[${i}].scopeSpans[${j}].spans[${k}]: expected a span object`);
        out.push({ ...span, resource: rs.resource, scope });
      });
    });
  });
  return out;
}
