import { compact, type Json, locator, rewardFor, str } from '../read';
import type { Message } from '../transcript';
import type { ConvertContext } from '../types';
import { continuation, type Role, roleOf, samplingOf, tokenIds, usageOf } from './generation';
import { inputMessages, type Output, outputOf } from './messages';
import { ending, rewardOf, type Score, scoresOf } from './outcome';
import type { Span } from './spans';
import { pair, readToolSpan, type Slot, stepOf, type ToolRun, toolMessage } from './steps';

/*
 * One trace as one v1 rollout. Model-call spans are the generations, in start-time order; a model call
 * nested in another (a framework span around the provider's) and everything inside a tool span (a
 * sub-agent run as a tool) are kept under `extra.spans`, not counted twice. Tool spans are the steps.
 */

interface Generation {
  span: Span;
  input?: Message[];
  output: Output;
  slots: Slot[];
  model?: string;
}

function spanSummary(span: Span, role: Role): Json {
  const events = span.events.filter((e) => !e.used).map((e) => compact({ name: e.name, ...e.rest, attributes: e.attrs.unused() }));
  const summary: Json = compact({
    span_id: span.spanId,
    parent_id: span.parentId,
    name: span.name,
    kind: span.kind,
    span_kind: span.spanKind,
    role: role === 'other' ? undefined : role,
    scope: span.scope,
    started_at: span.startedAt,
    ended_at: span.endedAt,
    status: span.status === 'unset' ? undefined : span.status,
    status_message: span.statusMessage,
    attributes: span.attrs.unused(),
    events: events.length > 0 ? events : undefined,
  });
  // The span's other fields as written; one whose name the summary uses keeps it under `source_<name>`.
  for (const [k, v] of Object.entries(span.rest)) summary[k in summary ? `source_${k}` : k] = v;
  return summary;
}

/** Start-time order, file order for ties and spans without a start. */
function byTime(a: Span, b: Span): number {
  if (a.start !== undefined && b.start !== undefined && a.start !== b.start) return a.start < b.start ? -1 : 1;
  return a.index - b.index;
}

export function traceRecord(spans: readonly Span[], ctx: ConvertContext, traceIndex: number): Json {
  const order = [...spans].sort(byTime);
  const pos = new Map(order.map((s, i) => [s, i]));
  const byId = new Map<string, Span>();
  for (const s of order) if (s.spanId !== undefined && !byId.has(s.spanId)) byId.set(s.spanId, s);
  const roles = new Map(order.map((s) => [s, roleOf(s)]));
  const ancestorRoles = (s: Span): Set<Role> => {
    const seen = new Set<Span>([s]);
    const found = new Set<Role>();
    for (
      let p = s.parentId === undefined ? undefined : byId.get(s.parentId);
      p && !seen.has(p);
      p = p.parentId === undefined ? undefined : byId.get(p.parentId)
    ) {
      seen.add(p);
      found.add(roles.get(p) as Role);
    }
    return found;
  };
  const above = new Map(order.map((s) => [s, ancestorRoles(s)]));
  const inTool = order.filter((s) => above.get(s)?.has('tool'));
  const nestedLlm = order.filter((s) => roles.get(s) === 'llm' && !above.get(s)?.has('tool') && above.get(s)?.has('llm'));
  const genSpans = order.filter((s) => roles.get(s) === 'llm' && !above.get(s)?.has('tool') && !above.get(s)?.has('llm'));
  const toolSpans = order.filter((s) => roles.get(s) === 'tool' && !above.get(s)?.has('tool'));
  const traceId = order.find((s) => s.traceId !== undefined)?.traceId;
  const here = `${locator(ctx)}/traces[${traceIndex}]`;

  const gens: Generation[] = genSpans.map((span) => {
    const a = span.attrs;
    const model = a.str('gen_ai.response.model') ?? a.str('gen_ai.request.model') ?? a.str('llm.model_name');
    const output = outputOf(span);
    const slots = (output.message?.tool_calls ?? []).map((call) => ({ call }));
    return { span, input: inputMessages(span), output, slots, model };
  });
  const owner = (s: Span): number | undefined => {
    const p = pos.get(s) as number;
    let k: number | undefined;
    gens.forEach((g, i) => {
      if ((pos.get(g.span) as number) < p) k = i;
    });
    return k;
  };
  const runs: ToolRun[] = toolSpans.map((s) => readToolSpan(s, owner(s), `${here}/${s.spanId ?? `spans[${s.index}]`}`));
  pair(
    runs,
    gens.map((g) => g.slots),
    gens.map((g) => g.output.message !== undefined),
  );
  const runsOf = (k: number | undefined) => runs.filter((r) => r.owner === k);

  // The transcript: the first call's context, each generation, and what came back before the next call
  // (from that call's own context when it extends the transcript, else from the tool spans).
  const agentInput = gens.length === 0 || gens[0]?.input === undefined ? agentMessages(order, roles) : undefined;
  const transcript: Message[] = [...(gens[0]?.input ?? agentInput ?? [])];
  const firstGenerated = transcript.length;
  // Tools run before any model call: in the transcript only when no call records its context.
  if (gens[0]?.input === undefined) transcript.push(...runsOf(undefined).map(toolMessage));
  const recordModel = gens.find((g) => g.model !== undefined)?.model;
  const segments = gens.map((g, k) => {
    let context: Message[] | undefined;
    if (k > 0) {
      const added = g.input && continuation(g.input, transcript);
      if (added) transcript.push(...added);
      else {
        transcript.push(...runsOf(k - 1).map(toolMessage));
        context = g.input;
      }
    }
    const message: Message = g.output.message ? { ...g.output.message } : { role: 'assistant', content: null };
    if (message.tool_calls) {
      message.tool_calls = g.slots.map((s) => (s.call.id === undefined && s.run && !s.run.locator ? { ...s.call, id: s.run.id } : s.call));
    }
    const implied = g.output.message === undefined ? runsOf(k).filter((r) => !r.call) : [];
    const used = [...g.slots.map((s) => (s.call.id !== undefined ? { id: s.call.id, locator: false } : s.run)), ...implied];
    const ids = used.flatMap((u) => (u ? [u.id] : []));
    const tokens = tokenIds(g.span.attrs);
    const extra = compact({
      span_id: g.span.spanId,
      response_id: g.span.attrs.str('gen_ai.response.id'),
      finish_reasons: g.output.finishReasons.length > 0 ? g.output.finishReasons : undefined,
      ...usageOf(g.span.attrs),
      other_output_messages: g.output.others,
    });
    const segment = compact({
      input_ids: tokens?.input ?? [],
      generated_ids: tokens?.generated ?? [],
      old_logprobs: [],
      old_logprobs_recorded: tokens ? false : undefined,
      tool_call_id: ids[0] ?? null,
      tool_call_ids: ids.length > 1 ? ids : undefined,
      tool_call_id_is_locator: used.some((u) => u?.locator) ? true : undefined,
      text: message.content ?? undefined,
      transcript_index: transcript.length,
      context_messages: context,
      policy_version: g.model !== undefined && g.model !== recordModel ? g.model : undefined,
      extra: Object.keys(extra).length > 0 ? extra : undefined,
    });
    transcript.push(message);
    return segment;
  });
  if (gens.length > 0) transcript.push(...runsOf(gens.length - 1).map(toolMessage));
  const steps = runs.map(stepOf);

  const last = gens[gens.length - 1];
  // Root spans: those with no parent (a span whose parent was not exported is not taken for a root).
  const roots = order.filter((s) => s.parentId === undefined);
  const end = ending(
    roots,
    last && {
      finishReasons: last.output.finishReasons,
      actedAfter: last.slots.length > 0 || runs.some((r) => (pos.get(r.span) as number) > (pos.get(last.span) as number)),
    },
  );
  const scores: Score[] = order.flatMap(scoresOf);
  const modes = new Set(runs.flatMap((r) => (r.pairedBy ? [r.pairedBy] : [])));
  const resources = distinct(order.flatMap((s) => (s.resource ? [s.resource] : [])));
  const models = distinct(gens.flatMap((g) => (g.model ? [g.model] : [])));
  const lightning = (key: string) => str(order.map((s) => s.resource?.[key] ?? s.attrs.values[key]).find((v) => typeof v === 'string'));
  const rolloutId = lightning('agentlightning.rollout_id');
  const prompt = transcript.slice(0, firstGenerated).find((m) => m.role === 'user' && typeof m.content === 'string' && m.content !== '');
  const starts = order.flatMap((s) => (s.start !== undefined ? [s] : []));
  const ends = order.flatMap((s) => (s.end !== undefined ? [s] : []));
  const extra: Json = compact({
    trace_id: rolloutId !== undefined ? traceId : undefined,
    paired_by: runs.length > 0 ? (modes.size === 2 ? 'id+order' : ([...modes][0] ?? 'none')) : undefined,
    unpaired_steps: runs.filter((r) => !r.pairedBy).length || undefined,
    termination_evidence: end.evidence,
    scores: scores.length > 0 ? scores : undefined,
    nested_llm_spans: nestedLlm.length || undefined,
    spans_inside_tools: inTool.length || undefined,
    models: models.length > 1 ? models : undefined,
    resource: resources.length === 1 ? resources[0] : undefined,
    resources: resources.length > 1 ? resources : undefined,
    ids_imprecise: order.some((s) => s.impreciseId) ? true : undefined,
  });
  const reward = rewardOf(scores);
  const sampling = gens[0] ? samplingOf(gens[0].span.attrs) : undefined;
  // Last, once every reader has taken its attributes: each span with what no field took.
  extra.spans = order.map((s) => spanSummary(s, roles.get(s) as Role));
  return compact({
    source_format: 'otel-genai',
    // OpenTelemetry has no task id: each trace is its own task, so no group statistics are invented.
    task_id: here,
    rollout_id: rolloutId ?? traceId ?? here,
    attempt_id: lightning('agentlightning.attempt_id'),
    task: prompt ? { prompt: prompt.content as string } : undefined,
    policy_version: recordModel,
    sampling,
    transcript,
    segments,
    steps: steps.length > 0 ? steps : undefined,
    termination: end.termination,
    reward: rewardFor(end.termination, reward, extra),
    started_at: starts.sort(byTime)[0]?.startedAt,
    ended_at: ends.sort((a, b) => (a.end === b.end ? 0 : (a.end as bigint) < (b.end as bigint) ? -1 : 1)).at(-1)?.endedAt,
    extra,
  });
}

/** The input messages of the outermost agent span that records them (the run's prompt, when no model call records its context). */
function agentMessages(order: readonly Span[], roles: ReadonlyMap<Span, Role>): Message[] | undefined {
  const agent = order.find((s) => roles.get(s) === 'agent' && s.attrs.has('gen_ai.input.messages'));
  return agent ? inputMessages(agent) : undefined;
}

function distinct<T>(values: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const v of values) {
    const key = JSON.stringify(v);
    if (!seen.has(key)) seen.set(key, v);
  }
  return [...seen.values()];
}
