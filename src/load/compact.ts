import { sharedPrefixes } from '../analysis';
import type { Rollout, Segment, Training } from '../format';

/*
 * The in-memory form of a loaded rollout. A segment's `input_ids` nearly always begins with the previous
 * segment's `input_ids` + `generated_ids`, so storing every context whole is quadratic in the rollout's
 * length; here each segment keeps only what it adds (`prefix` says how much it shares), ids live in
 * typed arrays (transferable from the parse worker without a copy), and `expandRollout` rebuilds the
 * exact recorded arrays when a rollout is opened. Lint runs on the full record before compaction.
 */

/** A type's named fields without its index signature (zod's loose objects have `[x: string]: unknown`). */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
type Loose<T, Drop extends keyof Known<T>> = Omit<Known<T>, Drop> & { [extra: string]: unknown };

export type IdArray = Int32Array | Float64Array;

export interface CompactSegment {
  /** Every field but the arrays below (tool_call_id, unknown fields, ...). */
  rest: Loose<Segment, 'input_ids' | 'generated_ids' | 'old_logprobs' | 'loss_mask' | 'input_tokens' | 'generated_tokens'>;
  /** How many leading ids of this segment's input equal the previous segment's input + generated ids. */
  prefix: number;
  inputTail: IdArray;
  generated: IdArray;
  /** Kept as float64: these are the exact behaviour log-probs and are short (generated tokens only). */
  oldLogprobs: Float64Array;
  lossMask?: Uint8Array;
  /** input_tokens after the first `inputTokensPrefix` (shared with the previous segment's token strings). */
  inputTokensTail?: string[];
  inputTokensPrefix?: number;
  generatedTokens?: string[];
}

export interface CompactTraining {
  rest: Loose<Training, 'sequence_ids' | 'loss_mask' | 'logprobs'>;
  sequence: IdArray;
  lossMask: Uint8Array;
  /**
   * Float32 to halve the longest array of a record (one value per sequence position); null is NaN.
   * Shown to 7 significant digits; lint compared the exact values before compaction.
   */
  logprobs?: Float32Array;
}

export type CompactRollout = Loose<Rollout, 'segments' | 'training'> & {
  compactSegments: CompactSegment[];
  compactTraining?: CompactTraining;
};

/**
 * One ArrayBuffer per rollout, carved into the typed arrays of all its segments: a few dozen small
 * buffers per rollout cost the garbage collector more than the parse itself (measured with --cpu-prof),
 * and one buffer is one transfer from the worker.
 */
class Arena {
  private readonly buffer: ArrayBuffer;
  // One region per element type, widest first, so every view starts aligned to its element size.
  private f64: number;
  private i32: number;
  private f32: number;
  private u8: number;

  constructor(sizes: { f64: number; i32: number; f32: number; u8: number }) {
    this.f64 = 0;
    this.i32 = sizes.f64 * 8;
    this.f32 = this.i32 + sizes.i32 * 4;
    this.u8 = this.f32 + sizes.f32 * 4;
    this.buffer = new ArrayBuffer(this.u8 + sizes.u8);
  }

  /** Ids `a[from..]` as int32; an array with a value past 32 bits (never seen in practice) stays exact in float64. */
  ints(a: readonly number[], from = 0): IdArray {
    const out = new Int32Array(this.buffer, this.i32, a.length - from);
    this.i32 += (a.length - from) * 4;
    for (let i = from; i < a.length; i++) {
      const x = a[i] as number;
      out[i - from] = x;
      if ((x | 0) !== x) return Float64Array.from(a.slice(from));
    }
    return out;
  }

  floats(a: readonly number[]): Float64Array {
    const out = new Float64Array(this.buffer, this.f64, a.length);
    this.f64 += a.length * 8;
    for (let i = 0; i < a.length; i++) out[i] = a[i] as number;
    return out;
  }

  floats32(a: readonly (number | null)[]): Float32Array {
    const out = new Float32Array(this.buffer, this.f32, a.length);
    this.f32 += a.length * 4;
    for (let i = 0; i < a.length; i++) out[i] = a[i] ?? Number.NaN;
    return out;
  }

  bits(a: readonly number[]): Uint8Array {
    const out = new Uint8Array(this.buffer, this.u8, a.length);
    this.u8 += a.length;
    for (let i = 0; i < a.length; i++) out[i] = a[i] as number;
    return out;
  }
}

/** Compacts a validated record. */
export function compactRollout(record: Rollout): CompactRollout {
  const { segments, training, ...meta } = record;
  const prefixes = sharedPrefixes(segments);
  const sizes = { f64: 0, i32: 0, f32: training?.logprobs?.length ?? 0, u8: 0 };
  segments.forEach((seg, i) => {
    sizes.f64 += seg.old_logprobs.length;
    sizes.i32 += seg.input_ids.length - (prefixes[i] ?? 0) + seg.generated_ids.length;
    sizes.u8 += seg.loss_mask?.length ?? 0;
  });
  if (training) {
    sizes.i32 += training.sequence_ids.length;
    sizes.u8 += training.loss_mask.length;
  }
  const arena = new Arena(sizes);
  const compactSegments = segments.map((seg, i): CompactSegment => {
    const { input_ids, generated_ids, old_logprobs, loss_mask, input_tokens, generated_tokens, ...rest } = seg;
    const prefix = prefixes[i] ?? 0;
    const c: CompactSegment = {
      rest,
      prefix,
      oldLogprobs: arena.floats(old_logprobs),
      inputTail: arena.ints(input_ids, prefix),
      generated: arena.ints(generated_ids),
    };
    if (loss_mask) c.lossMask = arena.bits(loss_mask);
    if (input_tokens) {
      // Token strings share the prefix only when the previous segment carries all of its own.
      const prev = segments[i - 1];
      const prevHasTokens =
        prev?.input_tokens?.length === prev?.input_ids.length && prev?.generated_tokens?.length === prev?.generated_ids.length;
      const shared = input_tokens.length === input_ids.length && prevHasTokens ? prefix : 0;
      c.inputTokensTail = input_tokens.slice(shared);
      c.inputTokensPrefix = shared;
    }
    if (generated_tokens) c.generatedTokens = generated_tokens;
    return c;
  });
  const out: CompactRollout = { ...meta, compactSegments };
  if (training) {
    const { sequence_ids, loss_mask, logprobs, ...rest } = training;
    out.compactTraining = { rest, sequence: arena.ints(sequence_ids), lossMask: arena.bits(loss_mask) };
    if (logprobs) out.compactTraining.logprobs = arena.floats32(logprobs);
  }
  return out;
}

/** Float32 holds about 7 significant digits; print what was stored, not float32 noise (-0.7 not -0.699999988). */
function fromFloat32(x: number): number | null {
  return Number.isNaN(x) ? null : Number(x.toPrecision(7));
}

/** The record as it was recorded (training log-probs to float32 precision). */
export function expandRollout(c: CompactRollout): Rollout {
  const { compactSegments, compactTraining, ...meta } = c;
  const segments: Segment[] = [];
  let prevFull: number[] = [];
  let prevTokens: string[] | undefined;
  for (const s of compactSegments) {
    const input_ids = prevFull.slice(0, s.prefix).concat(Array.from(s.inputTail));
    const generated_ids = Array.from(s.generated);
    const seg: Segment = { ...s.rest, input_ids, generated_ids, old_logprobs: Array.from(s.oldLogprobs) };
    if (s.lossMask) seg.loss_mask = Array.from(s.lossMask, (x) => (x === 1 ? 1 : 0));
    if (s.inputTokensTail) seg.input_tokens = (prevTokens ?? []).slice(0, s.inputTokensPrefix ?? 0).concat(s.inputTokensTail);
    if (s.generatedTokens) seg.generated_tokens = s.generatedTokens;
    segments.push(seg);
    prevFull = input_ids.concat(generated_ids);
    prevTokens = seg.input_tokens && seg.generated_tokens ? seg.input_tokens.concat(seg.generated_tokens) : undefined;
  }
  const out: Rollout = { ...meta, segments };
  if (compactTraining) {
    const t: Training = {
      ...compactTraining.rest,
      sequence_ids: Array.from(compactTraining.sequence),
      loss_mask: Array.from(compactTraining.lossMask, (x) => (x === 1 ? 1 : 0)),
    };
    if (compactTraining.logprobs) t.logprobs = Array.from(compactTraining.logprobs, fromFloat32);
    out.training = t;
  }
  return out;
}

/** The buffers a compact record holds, to transfer rather than copy from the worker. */
export function transferables(c: CompactRollout): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const add = (a: { buffer: ArrayBufferLike } | undefined) => {
    if (a && a.buffer instanceof ArrayBuffer) out.add(a.buffer);
  };
  for (const s of c.compactSegments) {
    add(s.inputTail);
    add(s.generated);
    add(s.oldLogprobs);
    add(s.lossMask);
  }
  add(c.compactTraining?.sequence);
  add(c.compactTraining?.lossMask);
  add(c.compactTraining?.logprobs);
  return [...out];
}

/** Bytes held by a compact record's typed arrays (the bulk of its memory). */
export function compactBytes(c: CompactRollout): number {
  let n = 0;
  for (const s of c.compactSegments)
    n += s.inputTail.byteLength + s.generated.byteLength + s.oldLogprobs.byteLength + (s.lossMask?.byteLength ?? 0);
  const t = c.compactTraining;
  if (t) n += t.sequence.byteLength + t.lossMask.byteLength + (t.logprobs?.byteLength ?? 0);
  return n;
}
