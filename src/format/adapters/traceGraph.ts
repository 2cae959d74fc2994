import { compact, int, intArray, isRecord, type Json, list, numArray, rec } from './read';
import { type Message, normalizeMessage } from './transcript';
import { ConvertError } from './types';

/*
 * The message graph of a verifiers v1 trace (verifiers/v1/graph.py MessageNode): each node holds one
 * message and its delta to the cumulative token sequence, so a root-to-node path concatenates to exactly
 * what the model saw. `mask` marks the tokens the model sampled; `logprobs` has one entry per such token.
 */

export interface Node {
  parent: number | null;
  message: Message;
  sampled: boolean;
  tokens: number[];
  mask: boolean[];
  logprobs: number[];
  raw: Json;
}

/** The trace's nodes, checked: a parent earlier in the list, token ids with a mask entry each, numeric logprobs. */
export function readNodes(raw: unknown, path: string): Node[] {
  const nodes = list(raw) ?? [];
  return nodes.map((n, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(n)) throw new ConvertError(`${at}: expected a message node`);
    const parent = n.parent === null || n.parent === undefined ? null : int(n.parent);
    if (parent === undefined || (parent !== null && (parent < 0 || parent >= i)))
      throw new ConvertError(`${at}.parent: expected an earlier node index or null`);
    const message = normalizeMessage(n.message, `${at}.message`);
    if (!message) throw new ConvertError(`${at}.message: expected a chat message with a string "role"`);
    const tokens = n.token_ids === undefined ? [] : intArray(n.token_ids);
    if (!tokens) throw new ConvertError(`${at}.token_ids: expected integers`);
    const mask = (list(n.mask) ?? []).map((b) => b === true || b === 1);
    if (mask.length !== tokens.length)
      throw new ConvertError(`${at}.mask: expected one entry per token id (${tokens.length}), got ${mask.length}`);
    const logprobs = n.logprobs === undefined ? [] : numArray(n.logprobs);
    if (!logprobs) throw new ConvertError(`${at}.logprobs: expected numbers`);
    return { parent, message, sampled: n.sampled === true, tokens, mask, logprobs, raw: n };
  });
}

/** Node indices from the root to `k`. */
function pathTo(nodes: readonly Node[], k: number): number[] {
  const path: number[] = [];
  for (let at: number | null = k; at !== null; at = nodes[at]?.parent ?? null) path.push(at);
  return path.reverse();
}

/** Contiguous runs of sampled positions, as [start, end). */
function sampledRuns(mask: readonly boolean[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  mask.forEach((on, i) => {
    const last = runs[runs.length - 1];
    if (!on) return;
    if (last && last[1] === i) last[1] = i + 1;
    else runs.push([i, i + 1]);
  });
  return runs;
}

/**
 * The segments of one sampled node. Its context is the token spans of its path before it plus its own
 * scaffold; its generation is the sampled span. A mask with gaps (tokens the model did not sample inside a
 * reply) is split into one segment per sampled run so that every generated id keeps its own logprob.
 */
export function nodeSegments(nodes: readonly Node[], k: number, linear: boolean): Json[] {
  const node = nodes[k];
  if (!node) return [];
  const path = pathTo(nodes, k);
  const prefix = path.slice(0, -1).flatMap((i) => nodes[i]?.tokens ?? []);
  const calls = (node.message.tool_calls ?? []).map((c) => c.id).filter((id): id is string => id !== undefined);
  const last: Json = compact({
    tool_call_id: calls[0] ?? null,
    tool_call_ids: calls.length > 1 ? calls : undefined,
    text: node.message.content ?? undefined,
    transcript_index: k,
    context_messages: linear ? undefined : path.slice(0, -1).map((i) => nodes[i]?.message),
  });
  // The node's own other fields (timestamp, advantages, ...) stay in the record's extra.nodes.
  const extra: Json = { node: k };
  const runs = sampledRuns(node.mask);
  const sampledCount = runs.reduce((n, [a, b]) => n + b - a, 0);
  const first = runs[0];
  const end = runs[runs.length - 1]?.[1];
  if (!first || end === undefined) {
    // No token ids (a relay turn) or nothing sampled: the generation is known as text only.
    return [{ input_ids: [...prefix, ...node.tokens], generated_ids: [], old_logprobs: [], ...last, extra }];
  }
  if (runs.length === 1 || node.logprobs.length !== sampledCount) {
    // One span; with gaps but mismatched logprobs it stays whole so lint reports the mismatch.
    const generated = node.tokens.slice(first[0], end);
    const mask = node.mask.slice(first[0], end);
    const segment: Json = {
      input_ids: [...prefix, ...node.tokens.slice(0, first[0])],
      generated_ids: generated,
      old_logprobs: node.logprobs,
    };
    if (mask.some((on) => !on)) segment.loss_mask = mask.map((on) => (on ? 1 : 0));
    return [{ ...segment, ...last, extra }];
  }
  let used = 0;
  return runs.map(([a, b], r) => {
    const segment: Json = {
      input_ids: [...prefix, ...node.tokens.slice(0, a)],
      generated_ids: node.tokens.slice(a, b),
      old_logprobs: node.logprobs.slice(used, used + b - a),
    };
    used += b - a;
    return r === runs.length - 1 ? { ...segment, ...last, extra } : { ...segment, tool_call_id: null, extra: { ...extra, sampled_run: r } };
  });
}

/**
 * Nodes whose whole token span is inside some segment: every node before a segment's node on its path,
 * and the segment's node itself unless unsampled tokens trail its last sampled one.
 */
export function coveredNodes(nodes: readonly Node[], segments: readonly Json[]): Set<number> {
  const covered = new Set<number>();
  for (const k of new Set(segments.map((s) => int(rec(s.extra)?.node) ?? -1))) {
    const node = nodes[k];
    if (!node) continue;
    for (const i of pathTo(nodes, k).slice(0, -1)) covered.add(i);
    if (node.mask.length === 0 || node.mask[node.mask.length - 1] === true) covered.add(k);
  }
  return covered;
}
