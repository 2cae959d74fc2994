import { roleOf } from './otel/generation';
import { otlpSpans, readSpan, type Span } from './otel/spans';
import { traceRecord } from './otel/trace';
import { isRecord, type Json, list, rec } from './read';
import { type Convert, type ConvertContext, ConvertError } from './types';

/*
 * OpenTelemetry GenAI traces (docs/formats.md, "OpenTelemetry GenAI traces"): OTLP JSON exports and
 * lists of span objects, read by the GenAI semantic conventions and by OpenInference's. Each trace
 * (trace id) is one rollout: its model calls are the segments, its tool spans the steps.
 *
 * Not registered here: the format registry wires these in. A span-per-line file must be gathered
 * across its lines before `convertSpanList` (a trace's spans are spread over many lines).
 */

export { otlpSpans } from './otel/spans';

/** An OTLP JSON traces export (`ExportTraceServiceRequest`): a `resourceSpans` array. */
export function isOtlpExport(v: Json): boolean {
  if (!Array.isArray(v.resourceSpans)) return false;
  const first = rec(v.resourceSpans[0]);
  return first === undefined
    ? v.resourceSpans.length === 0
    : Array.isArray(first.scopeSpans) || Array.isArray(first.instrumentationLibrarySpans);
}

function isMarker(key: string): boolean {
  return key.startsWith('gen_ai.') || key.startsWith('llm.') || key === 'openinference.span.kind';
}

const OI_KINDS = new Set(['LLM', 'TOOL', 'AGENT', 'CHAIN', 'RETRIEVER', 'EMBEDDING', 'RERANKER', 'GUARDRAIL', 'EVALUATOR']);

/**
 * One span object carrying GenAI or OpenInference data: a trace id (`traceId`, `trace_id` or
 * `context.trace_id`) and a `gen_ai.*`, `llm.*` or `openinference.span.kind` attribute (flat map or
 * OTLP KeyValue list), or Phoenix's top-level `span_kind`.
 */
export function isGenAiSpan(v: Json): boolean {
  const context = rec(v.context);
  const trace = v.traceId ?? v.trace_id ?? context?.trace_id ?? context?.traceId;
  if (typeof trace !== 'string' && typeof trace !== 'number') return false;
  if (typeof v.span_kind === 'string' && OI_KINDS.has(v.span_kind)) return true;
  const attrs = v.attributes;
  if (Array.isArray(attrs)) return attrs.some((kv) => isRecord(kv) && typeof kv.key === 'string' && isMarker(kv.key));
  return isRecord(attrs) && Object.keys(attrs).some(isMarker);
}

function isGenAiTrace(spans: readonly Span[]): boolean {
  return spans.some((s) => roleOf(s) !== 'other' || Object.keys(s.attrs.values).some(isMarker));
}

/**
 * A list of span objects (a JSON array, or gathered from JSON lines) as one record per trace, in the
 * order traces first appear. Traces with no GenAI span are not rollouts: they are listed (id, span
 * count) under the first record's `extra.other_traces`. Spans without a trace id are read as one trace.
 */
export function convertSpanList(spans: Record<string, unknown>[], ctx: ConvertContext): Record<string, unknown>[] {
  const traces = new Map<string | undefined, Span[]>();
  spans.forEach((raw, i) => {
    const span = readSpan(raw, i, `spans[${i}]`);
    const group = traces.get(span.traceId);
    if (group) group.push(span);
    else traces.set(span.traceId, [span]);
  });
  const kept = [...traces.values()].filter(isGenAiTrace);
  if (kept.length === 0) {
    throw new ConvertError(
      spans.length === 0
        ? 'spans: no spans'
        : 'spans: no span carries GenAI (gen_ai.*) or OpenInference (llm.*, openinference.span.kind) attributes',
    );
  }
  const records = kept.map((t, i) => traceRecord(t, ctx, i));
  const others = [...traces.entries()].filter(([, t]) => !kept.includes(t)).map(([id, t]) => ({ trace_id: id ?? null, spans: t.length }));
  const first = records[0];
  if (others.length > 0 && first) {
    const extra = rec(first.extra) ?? {};
    extra.other_traces = others;
    first.extra = extra;
  }
  return records;
}

/** One OTLP JSON export (a document, or one line of a collector's file exporter): one record per trace. */
export const convertOtlpExport: Convert = (doc, ctx) => {
  if (!list(doc.resourceSpans)) throw new ConvertError('resourceSpans: expected an array (an OTLP JSON traces export)');
  const spans = otlpSpans(doc);
  if (spans.length === 0) throw new ConvertError('resourceSpans: no spans');
  return convertSpanList(spans, ctx);
};

/**
 * A JSON object holding a `spans` array of GenAI spans (any-agent's `AgentTrace`: `{spans, final_output}`):
 * the wrapper of a span list. Cheap: looks at the first few spans only.
 */
export function isSpanDocument(v: Json): boolean {
  const spans = list(v.spans);
  return spans?.slice(0, 8).some((s) => isRecord(s) && isGenAiSpan(s)) === true;
}

/** A span-list document (`isSpanDocument`): its spans as `convertSpanList` reads them, its other fields under each record's `extra.document`. */
export const convertSpanDocument: Convert = (doc, ctx) => {
  const spans = list(doc.spans);
  if (!spans) throw new ConvertError('spans: expected an array of span objects');
  const records = convertSpanList(spans as Record<string, unknown>[], ctx);
  const { spans: _spans, ...rest } = doc;
  if (Object.keys(rest).length > 0) {
    for (const r of records) r.extra = { ...(rec(r.extra) ?? {}), document: rest };
  }
  return records;
};

/** The `otel-genai` format: an OTLP export, a span-list document, or spans gathered from a file's lines. */
export const convertOtel: Convert = (value, ctx) => {
  if (isOtlpExport(value)) return convertOtlpExport(value, ctx);
  if (Array.isArray(value.spans)) return convertSpanDocument(value, ctx);
  return convertSpanList([value], ctx);
};

/**
 * Detection: an OTLP export, a span-list document, or one span. Any span with its trace and span ids and a
 * name, not only a GenAI one: a trace's root (an agent's session span) often carries no GenAI attribute and
 * may come first, in a file whose other lines are model calls. A trace with no GenAI span at all is then
 * one clear error ("no span carries GenAI … attributes"), not a file of no known format.
 */
export function isOtelTrace(v: Json): boolean {
  return isOtlpExport(v) || isSpanDocument(v) || isGenAiSpan(v) || isSpanLike(v);
}

function isSpanLike(v: Json): boolean {
  const context = rec(v.context);
  const trace = v.traceId ?? v.trace_id ?? context?.trace_id ?? context?.traceId;
  const span = v.spanId ?? v.span_id ?? context?.span_id ?? context?.spanId;
  return (
    typeof v.name === 'string' &&
    (typeof trace === 'string' || typeof trace === 'number') &&
    (typeof span === 'string' || typeof span === 'number')
  );
}

/**
 * What one line of a span-per-line file adds to the file's trace: its spans (an OTLP batch's, or the line's
 * own), gathered to the end of the file because a trace's spans come on many lines; null for a line that is
 * a whole document of its own (`{spans: [...]}`), converted at once.
 */
export function spansOfLine(value: Json): Json[] | null {
  if (isOtlpExport(value)) return otlpSpans(value);
  if (Array.isArray(value.spans)) return null;
  return [value];
}
