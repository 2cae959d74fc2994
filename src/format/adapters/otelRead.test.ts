import { describe, expect, it } from 'vitest';
import { fetchedFile, fetchedMissing } from '../../testing/fetched';
import type { LineResult } from '../jsonl';
import { createLineParser } from './lineParser';
import { convertSpanList } from './otelGenai';

/*
 * OpenTelemetry traces through the one parser the CLI and the page share (detection, whole documents,
 * span-per-line files gathered to their end), against the converter called directly (otelGenai.test.ts).
 */

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

function read(name: string, bytes: Uint8Array, chunk = 1 << 16) {
  const parser = createLineParser(name);
  const results: LineResult[] = [];
  for (let at = 0; at < bytes.length; at += chunk) results.push(...parser.push(bytes.subarray(at, at + chunk)));
  results.push(...parser.end());
  return {
    format: parser.format,
    rollouts: results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : [])),
    errors: results.flatMap((r) => (r.kind === 'error' ? [r.value] : [])),
  };
}

const span = (id: string, parent: string | null, attributes: Json, start: number) => ({
  trace_id: 't-1',
  span_id: id,
  parent_span_id: parent,
  name: id,
  start_time: start,
  end_time: start + 0.5,
  attributes,
});

// A root without GenAI attributes first: a line of its own that only the file's format explains.
const lines = [
  span('root', null, { 'service.name': 'agent' }, 1),
  span(
    'llm-1',
    'root',
    { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm', 'gen_ai.response.finish_reasons': ['tool_calls'] },
    2,
  ),
  span('tool-1', 'root', { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search', 'gen_ai.tool.call.id': 'c1' }, 3),
  span('llm-2', 'root', { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'm', 'gen_ai.response.finish_reasons': ['stop'] }, 4),
];

describe('OpenTelemetry traces through createLineParser', () => {
  it('a span-per-line file is one trace, gathered across its lines, in any chunk size', () => {
    const bytes = new TextEncoder().encode(`${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const direct = convertSpanList(lines, { file: 'spans.jsonl', line: 1 });
    for (const chunk of [1 << 16, 37]) {
      const { format, rollouts, errors } = read('spans.jsonl', bytes, chunk);
      expect(errors).toEqual([]);
      expect(format).toBe('otel-genai');
      expect(rollouts).toHaveLength(1);
      expect(rollouts[0]?.segments).toHaveLength(2);
      expect(rollouts[0]?.steps?.map((s: Json) => s.tool)).toEqual(['search']);
      expect(rollouts[0]?.rollout_id).toBe(direct[0]?.rollout_id);
    }
  });

  it('a JSON array of spans is one trace, not one rollout per span', () => {
    const { format, rollouts, errors } = read('trace.json', new TextEncoder().encode(JSON.stringify(lines, null, 2)));
    expect(errors).toEqual([]);
    expect(format).toBe('otel-genai');
    expect(rollouts).toHaveLength(1);
    expect(rollouts[0]?.steps).toHaveLength(1);
  });
});

const ANY_AGENT = 'mozilla-ai/any-agent';
const MISSING = fetchedMissing(ANY_AGENT);

describe.skipIf(MISSING !== null)(`a published any-agent trace opens through the parser ${MISSING ?? ''}`, () => {
  it('SMOLAGENTS_trace.json reads as the converter reads it', () => {
    const path = 'tests/assets/SMOLAGENTS_trace.json';
    const bytes = fetchedFile(ANY_AGENT, path);
    const { format, rollouts, errors } = read('SMOLAGENTS_trace.json', bytes);
    expect(errors).toEqual([]);
    expect(format).toBe('otel-genai');
    expect(rollouts).toHaveLength(1);
    const doc = JSON.parse(bytes.toString('utf8')) as { spans: Json[] };
    const direct = convertSpanList(doc.spans, { file: 'SMOLAGENTS_trace.json', line: 1 });
    expect(rollouts[0]?.steps?.map((s: Json) => s.tool)).toEqual((direct[0]?.steps as Json[] | undefined)?.map((s) => s.tool));
    expect(rollouts[0]?.segments).toHaveLength(((direct[0]?.segments ?? []) as unknown[]).length);
  });
});
