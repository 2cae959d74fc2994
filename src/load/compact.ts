import { chunkedArray, type Pass, runPass, sharedPrefixes } from '../analysis';
import type { Rollout, Segment, Step, Training } from '../format';
import { IDS_PER_YIELD, LAZY_STEPS, SEGMENTS_PER_CHUNK, STEPS_PER_CHUNK } from './scale';

/*
 * The in-memory form of a loaded rollout (docs/adr/0006, 0008). A segment's `input_ids` nearly always
 * begins with the previous segment's `input_ids` + `generated_ids`, so storing every context whole is
 * quadratic in the rollout's length; here each segment keeps only what it adds (`prefix` says how much
 * it shares), and `expandRollout` rebuilds the exact recorded arrays when a rollout is opened. Lint runs
 * on the full record before compaction.
 *
 * A compact record is flat: one run of bytes holding the id arrays (typed, aligned) followed by a small
 * JSON layout (every other field, and where each array lies). Passing it between threads is then a
 * transfer of its buffer and a clone of three fields; the object graph of a record (steps, segments,
 * dozens of typed-array views) cost two structured clones per rollout on the way to the page.
 *
 * Steps and segment layouts lie in chunks of JSON after the layout, so a huge rollout (a million steps,
 * 110 MB of JSON) is expanded chunk by chunk in slices between frames (`expandPass`, docs/adr/0017)
 * rather than in one JSON.parse that blocks the page for half a second.
 */

export interface CompactRollout {
  /** `policy_version`, which the run list shows without expanding the record. */
  policy: string | null;
  /** The record's own `training_step` (§2), which a checkpoint comparison reads without expanding it. */
  trainingStep: number | null;
  /**
   * The record: its id arrays from byte 0, its layout (UTF-8 JSON) from `layoutAt`, the chunks of steps
   * and segment layouts (UTF-8 JSON arrays) from `chunksAt`. 8-byte aligned.
   */
  bytes: Uint8Array;
  layoutAt: number;
  chunksAt: number;
  /** Steps + segments: how long expanding it takes, without expanding it. */
  size: number;
}

// Re-exported: expansion's tests name the bound by the module that applies it.
export { LAZY_STEPS };

/** Where a chunk lies, from `chunksAt`: offset and length in bytes. */
type Region = [offset: number, length: number];

/** Element types, by code: int32 ids, float64 (ids past 32 bits, behaviour log-probs), float32, 0/1 masks. */
const KINDS = [Int32Array, Float64Array, Float32Array, Uint8Array] as const;
type Kind = 0 | 1 | 2 | 3;
type Typed = Int32Array | Float64Array | Float32Array | Uint8Array;
/** Where one array lies: its element type, byte offset from the record's start, and length. */
type Slot = [kind: Kind, offset: number, length: number];

type Loose = { [field: string]: unknown };

interface SegmentLayout {
  /** Every field but the arrays (tool_call_id, unknown fields, ...). */
  rest: Loose;
  /** How many leading ids of this segment's input equal the previous segment's input + generated ids. */
  prefix: number;
  inputTail: Slot;
  generated: Slot;
  /** Float64: the exact behaviour log-probs, short (generated tokens only). */
  oldLogprobs: Slot;
  lossMask?: Slot;
  /** input_tokens after the first `inputTokensPrefix` (shared with the previous segment's token strings). */
  inputTokensTail?: string[];
  inputTokensPrefix?: number;
  generatedTokens?: string[];
}

interface Layout {
  /** Every field but segments and training; `steps`, when recorded, holds its place (key order) as 0. */
  meta: Loose;
  steps?: Region[];
  segments: Region[];
  training?: {
    rest: Loose;
    sequence: Slot;
    lossMask: Slot;
    /** Float32 to halve the longest array of a record (one value per sequence position); null is NaN. */
    logprobs?: Slot;
  };
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** Compacts a validated record. */
export function compactRollout(record: Rollout): CompactRollout {
  // Ids are int32; an id that does not fit (never seen in practice) makes its array float64, exact: the
  // copy notices, and the record is laid out again with that array wide.
  const wide = new Set<number>();
  for (;;) {
    const c = tryCompact(record, wide);
    if (c) return c;
  }
}

/** null when an int32 id array held an id past 32 bits (its index is then added to `wide`). */
function tryCompact(record: Rollout, wide: Set<number>): CompactRollout | null {
  const { segments, training, ...meta } = record;
  let ids = 0;
  const idKind = (): Kind => (wide.has(ids++) ? 1 : 0);
  const prefixes = sharedPrefixes(segments);
  // Every array, in the order it is written; offsets are assigned widest first, so each view is aligned.
  const arrays: Array<{ slot: Slot; values: readonly (number | null)[]; from: number; id: number }> = [];
  const slot = (kind: Kind, values: readonly (number | null)[], from = 0): Slot => {
    const s: Slot = [kind, 0, values.length - from];
    arrays.push({ slot: s, values, from, id: ids - 1 });
    return s;
  };
  const segmentLayouts = segments.map((seg, i): SegmentLayout => {
    const { input_ids, generated_ids, old_logprobs, loss_mask, input_tokens, generated_tokens, ...rest } = seg;
    const prefix = prefixes[i] ?? 0;
    const s: SegmentLayout = {
      rest,
      prefix,
      inputTail: slot(idKind(), input_ids, prefix),
      generated: slot(idKind(), generated_ids),
      oldLogprobs: slot(1, old_logprobs),
    };
    if (loss_mask) s.lossMask = slot(3, loss_mask);
    if (input_tokens) {
      // Token strings share the prefix only when the previous segment carries all of its own.
      const prev = segments[i - 1];
      const prevHasTokens =
        prev?.input_tokens?.length === prev?.input_ids.length && prev?.generated_tokens?.length === prev?.generated_ids.length;
      const shared = input_tokens.length === input_ids.length && prevHasTokens ? prefix : 0;
      s.inputTokensTail = input_tokens.slice(shared);
      s.inputTokensPrefix = shared;
    }
    if (generated_tokens) s.generatedTokens = generated_tokens;
    return s;
  });
  let trainingLayout: Layout['training'];
  if (training) {
    const { sequence_ids, loss_mask, logprobs, ...rest } = training;
    trainingLayout = { rest, sequence: slot(idKind(), sequence_ids), lossMask: slot(3, loss_mask) };
    if (logprobs) trainingLayout.logprobs = slot(2, logprobs);
  }
  let size = 0;
  for (const kind of [1, 0, 2, 3] as const) {
    for (const { slot: s } of arrays) {
      if (s[0] !== kind) continue;
      s[1] = size;
      size += s[2] * KINDS[kind].BYTES_PER_ELEMENT;
    }
  }
  const layoutAt = size;
  // Chunks are written once every slot has its offset.
  const chunks: Uint8Array[] = [];
  let chunkBytes = 0;
  const chunked = (values: readonly unknown[], per: number): Region[] => {
    const regions: Region[] = [];
    for (let i = 0; i < values.length; i += per) {
      const json = utf8.encode(JSON.stringify(values.slice(i, i + per)));
      regions.push([chunkBytes, json.length]);
      chunks.push(json);
      chunkBytes += json.length;
    }
    return regions;
  };
  const { steps, ...fields } = meta;
  const layout: Layout = {
    meta: steps === undefined ? fields : { ...meta, steps: 0 },
    segments: chunked(segmentLayouts, SEGMENTS_PER_CHUNK),
  };
  if (steps !== undefined) layout.steps = chunked(steps, STEPS_PER_CHUNK);
  if (trainingLayout) layout.training = trainingLayout;
  const json = utf8.encode(JSON.stringify(layout));
  const chunksAt = layoutAt + json.length;
  const buffer = new ArrayBuffer(chunksAt + chunkBytes);
  for (const { slot: s, values, from, id } of arrays) {
    const [kind, offset, length] = s;
    if (kind === 0) {
      if (!copyInt32(new Int32Array(buffer, offset, length), values, from)) {
        wide.add(id);
        return null;
      }
    } else if (kind === 1) copyFloat64(new Float64Array(buffer, offset, length), values, from);
    else if (kind === 2) copyNullable(new Float32Array(buffer, offset, length), values);
    else copyBits(new Uint8Array(buffer, offset, length), values);
  }
  const bytes = new Uint8Array(buffer);
  bytes.set(json, layoutAt);
  let at = chunksAt;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  const step = meta.training_step;
  return {
    policy: typeof meta.policy_version === 'string' ? meta.policy_version : null,
    trainingStep: typeof step === 'number' && Number.isInteger(step) && step >= 0 ? step : null,
    bytes,
    layoutAt,
    chunksAt,
    size: (steps?.length ?? 0) + segments.length,
  };
}

// One copy loop per element type: a single loop storing into several typed array types is megamorphic,
// and measured 4x slower than these (the bulk of compaction).
/** false when a value did not fit int32 (nothing else can be stored there exactly). */
function copyInt32(out: Int32Array, values: readonly (number | null)[], from: number): boolean {
  for (let i = 0; i < out.length; i++) {
    const x = values[i + from] as number;
    out[i] = x;
    if (out[i] !== x) return false;
  }
  return true;
}

function copyFloat64(out: Float64Array, values: readonly (number | null)[], from: number): void {
  for (let i = 0; i < out.length; i++) out[i] = values[i + from] as number;
}

function copyBits(out: Uint8Array, values: readonly (number | null)[]): void {
  for (let i = 0; i < out.length; i++) out[i] = values[i] as number;
}

/** Training log-probs may hold null (no log-prob recorded): stored as NaN. */
function copyNullable(out: Float32Array, values: readonly (number | null)[]): void {
  for (let i = 0; i < out.length; i++) out[i] = values[i] ?? Number.NaN;
}

/** Float32 holds about 7 significant digits; print what was stored, not float32 noise (-0.7 not -0.699999988). */
function fromFloat32(x: number): number | null {
  return Number.isNaN(x) ? null : Number(x.toPrecision(7));
}

/**
 * The record as it was recorded (training log-probs to float32 precision). Past `lazyOver` steps its
 * steps are parsed when read (LAZY_STEPS; Infinity parses them all now).
 */
export function expandRollout(c: CompactRollout, lazyOver = LAZY_STEPS): Rollout {
  return runPass(expandPass(c, lazyOver));
}

/** `expandRollout` as a pass (src/analysis/passes.ts): chunk by chunk, for a page to run in slices. */
export function* expandPass(c: CompactRollout, lazyOver = LAZY_STEPS): Pass<Rollout> {
  const layout = JSON.parse(fromUtf8.decode(c.bytes.subarray(c.layoutAt, c.chunksAt))) as Layout;
  const view = ([kind, offset, length]: Slot): Typed => new KINDS[kind](c.bytes.buffer as ArrayBuffer, c.bytes.byteOffset + offset, length);
  const numbers = (s: Slot) => Array.from(view(s));
  const bits = (s: Slot) => Array.from(view(s), (x) => (x === 1 ? 1 : 0));
  const chunk = <T>([offset, length]: Region): T[] =>
    JSON.parse(fromUtf8.decode(c.bytes.subarray(c.chunksAt + offset, c.chunksAt + offset + length))) as T[];
  let done = 0;
  let ids = 0;
  const segments: Segment[] = [];
  let prevFull: number[] = [];
  let prevTokens: string[] | undefined;
  for (const region of layout.segments) {
    for (const s of chunk<SegmentLayout>(region)) {
      const input_ids = prevFull.slice(0, s.prefix).concat(numbers(s.inputTail));
      const generated_ids = numbers(s.generated);
      const seg = { ...s.rest, input_ids, generated_ids, old_logprobs: numbers(s.oldLogprobs) } as Segment;
      if (s.lossMask) seg.loss_mask = bits(s.lossMask);
      if (s.inputTokensTail) seg.input_tokens = (prevTokens ?? []).slice(0, s.inputTokensPrefix ?? 0).concat(s.inputTokensTail);
      if (s.generatedTokens) seg.generated_tokens = s.generatedTokens;
      segments.push(seg);
      prevFull = input_ids.concat(generated_ids);
      prevTokens = seg.input_tokens && seg.generated_tokens ? seg.input_tokens.concat(seg.generated_tokens) : undefined;
      done++;
      ids += prevFull.length;
      if (ids > IDS_PER_YIELD) {
        ids = 0;
        yield done / c.size;
      }
    }
    yield done / c.size;
  }
  const out = { ...layout.meta, segments } as Rollout;
  const regions = layout.steps;
  const stepCount = c.size - segments.length;
  if (regions && stepCount > lazyOver) {
    out.steps = chunkedArray(stepCount, STEPS_PER_CHUNK, (i) => chunk<Step>(regions[i] as Region)) as Step[];
  } else if (regions) {
    const steps: Step[] = [];
    for (const region of regions) {
      for (const step of chunk<Step>(region)) steps.push(step);
      done += STEPS_PER_CHUNK;
      yield Math.min(1, done / c.size);
    }
    out.steps = steps;
  }
  const t = layout.training;
  if (t) {
    const training = { ...t.rest, sequence_ids: numbers(t.sequence), loss_mask: bits(t.lossMask) } as Training;
    if (t.logprobs) training.logprobs = Array.from(view(t.logprobs), fromFloat32);
    out.training = training;
  }
  return out;
}

/**
 * Moves several records into one ArrayBuffer, each at an 8-byte boundary. A parse worker packs each
 * block's records: every transferred buffer costs a wrapper and a GC callback in each thread it
 * crosses (measured: thousands of them per large file), one per block costs next to nothing.
 */
export function packCompact(records: CompactRollout[]): void {
  const align = (n: number) => Math.ceil(n / 8) * 8;
  let size = 0;
  for (const c of records) size += align(c.bytes.length);
  const buffer = new ArrayBuffer(size);
  let at = 0;
  for (const c of records) {
    const moved = new Uint8Array(buffer, at, c.bytes.length);
    moved.set(c.bytes);
    c.bytes = moved;
    at += align(moved.length);
  }
}

/**
 * The buffers compact records hold, each once (records packed together share one, and a transfer list
 * must not name a buffer twice), to transfer rather than copy between threads.
 */
export function transferables(...records: CompactRollout[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const c of records) if (c.bytes.buffer instanceof ArrayBuffer) out.add(c.bytes.buffer);
  return [...out];
}

/** Bytes held by a compact record's id arrays (the bulk of its memory; the layout JSON follows them). */
export function compactBytes(c: CompactRollout): number {
  return c.layoutAt;
}
