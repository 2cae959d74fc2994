/*
 * A run's rows held as compact columns (docs/adr/0015): typed arrays and string dictionaries, so the
 * memory a run takes grows with its rows (about 75 bytes each), never with the bytes of its rollouts.
 * Only the columns the run views read are kept; a rollout's JSON is read by range when it is opened.
 */

import type { Unsigned } from '../../analysis';

/*
 * Codes and counts are `Unsigned`, as narrow as their values: a run's dictionaries mostly hold a few values
 * (files, terminations, formats) and its counts are mostly small, so a million rows take 40 MB less than
 * at four bytes each (issue 25: held memory), and a shard part a worker posts is as much smaller.
 */

/** The largest value `a` holds. */
const limitOf = (a: Unsigned) => (a instanceof Uint8Array ? 0xff : a instanceof Uint16Array ? 0xffff : 0xffffffff);

/**
 * `a`, or a copy wide enough for `max` (values past 32 bits are the caller's to clamp first). Only the
 * first `used` rows are copied, the rest are still zero: a run's columns are sized for every row of the
 * manifest, and copying a million zeros for each column its first rows widen took the first merge from
 * 1-6 to 15-24 ms, on the way to the first chart.
 */
function widened(a: Unsigned, max: number, used: number): Unsigned {
  if (max <= limitOf(a)) return a;
  const next = max <= 0xffff ? new Uint16Array(a.length) : new Uint32Array(a.length);
  next.set(used >= a.length ? a : a.subarray(0, used));
  return next;
}

/** The largest of `values` (0 for none). */
function maxOf(values: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < values.length; i++) if ((values[i] ?? 0) > max) max = values[i] ?? 0;
  return max;
}

/** A string column whose values repeat (file, task, group, policy, termination): codes into a dictionary. */
export class DictColumn {
  readonly values: (string | null)[] = [];
  private readonly codeOf = new Map<string | null, number>();
  /** Read after `code()`: a new value may widen it. */
  codes: Unsigned;
  /** Rows that may hold a code (RunColumns.reserve sets it): all a widening copies. */
  used = 0;
  constructor(capacity: number) {
    this.codes = new Uint8Array(capacity);
  }
  code(value: string | null): number {
    let c = this.codeOf.get(value);
    if (c === undefined) {
      c = this.values.length;
      this.values.push(value);
      this.codeOf.set(value, c);
      this.codes = widened(this.codes, c, this.used);
    }
    return c;
  }
  /** The code of a value already seen, or -1 (a filter on a value the run does not have matches nothing). */
  find(value: string | null): number {
    return this.codeOf.get(value) ?? -1;
  }
  at(row: number): string | null {
    return this.values[this.codes[row] ?? 0] ?? null;
  }
  grow(capacity: number): void {
    this.codes = grown(this.codes, capacity);
  }
}

/** A string column of mostly distinct values (rollout ids): UTF-8 bytes end to end, decoded when asked for. */
export class BlobColumn {
  private bytes = new Uint8Array(1024);
  private used = 0;
  ends: Uint32Array;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  constructor(capacity: number) {
    this.ends = new Uint32Array(capacity);
  }
  set(row: number, value: string): void {
    const need = this.used + value.length * 3;
    if (need > this.bytes.length) this.bytes = grown(this.bytes, Math.max(need, this.bytes.length * 2));
    const { written } = this.encoder.encodeInto(value, this.bytes.subarray(this.used));
    this.used += written;
    this.ends[row] = this.used;
  }
  /** A value given as its UTF-8 bytes (as a Parquet shard holds it): copied, never decoded. */
  setBytes(row: number, value: Uint8Array): void {
    const need = this.used + value.length;
    if (need > this.bytes.length) this.bytes = grown(this.bytes, Math.max(need, this.bytes.length * 2));
    this.bytes.set(value, this.used);
    this.used = need;
    this.ends[row] = need;
  }
  /** Appends another column's bytes and ends (a shard decoded elsewhere) at rows `at ...`. */
  appendBytes(bytes: Uint8Array, ends: Uint32Array, at: number): void {
    if (this.used + bytes.length > this.bytes.length)
      this.bytes = grown(this.bytes, Math.max(this.used + bytes.length, this.bytes.length * 2));
    this.bytes.set(bytes, this.used);
    for (let i = 0; i < ends.length; i++) this.ends[at + i] = this.used + (ends[i] ?? 0);
    this.used += bytes.length;
  }
  /** The bytes in use and the ends, for handing a decoded shard to another thread. */
  parts(rows: number): { bytes: Uint8Array; ends: Uint32Array } {
    return { bytes: this.bytes.slice(0, this.used), ends: this.ends.slice(0, rows) };
  }
  at(row: number): string {
    const start = row === 0 ? 0 : (this.ends[row - 1] ?? 0);
    const end = this.ends[row] ?? start;
    return (end - start <= ASCII_UP_TO && asciiAt(this.bytes, start, end)) || this.decoder.decode(this.bytes.subarray(start, end));
  }
  grow(capacity: number): void {
    this.ends = grown(this.ends, capacity);
  }
  get byteLength(): number {
    return this.bytes.length + this.ends.byteLength;
  }
}

/**
 * An id this short and all ASCII is read byte by byte: `TextDecoder.decode` costs microseconds a call, and
 * opening a rollout of a run decodes its step's thousand ids (findRollout's keys): 7.5 ms of the click's
 * task in a profile, under 1 ms so.
 */
const ASCII_UP_TO = 64;

/** The bytes as a string if every one is ASCII, else '' (an empty span decodes to '' either way). */
function asciiAt(bytes: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i] ?? 0;
    if (b > 0x7f) return '';
    s += String.fromCharCode(b);
  }
  return s;
}

export type Typed = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

function grown<T extends Typed>(a: T, capacity: number): T {
  if (capacity <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(capacity);
  next.set(a);
  return next;
}

/** Counts are 32-bit (a rollout of a million steps reads as a million; issue 30); a negative or missing one as 0. */
export const count32 = (v: number) => (v > 0 ? Math.min(v, 0xffffffff) : 0);
/** `training_step` null. */
export const NO_STEP = -1;

/** The index columns read from each shard (INDEX_COLUMNS names; the rest stay on disk for SQL). */
export const RUN_VIEW_COLUMNS = [
  'file',
  'line',
  'offset',
  'length',
  'task_id',
  'rollout_id',
  'attempt_id',
  'group_id',
  'policy_version',
  'training_step',
  'termination',
  'in_signal',
  'reward',
  'source_format',
  'steps',
  'generated_tokens',
  'regressions',
  'errors',
  'warnings',
  'finding_codes',
  'truncated',
  'mismatch_n',
  'mismatch_max_abs',
  'mismatch_kl_k3',
  'failure_mode',
  'failure_features',
] as const;

export class RunColumns {
  /** Rows held. */
  n = 0;
  /**
   * The first row whose training step is less than the one before it (`Infinity` while none is): rows
   * `0 ... sortedTo - 1` are in step order, as a run indexed in file order usually is, and a step range
   * of them is found by binary search instead of a pass over every row (a million: 13-28 ms on the click
   * that opens a rollout, issue 25). Kept by `appended`.
   */
  sortedTo = Number.POSITIVE_INFINITY;
  /** Rows reserved so far (`n` and the rows being appended): a widened column copies these only. */
  private used = 0;
  private capacity: number;
  file: DictColumn;
  task: DictColumn;
  attempt: DictColumn;
  group: DictColumn;
  policy: DictColumn;
  termination: DictColumn;
  format: DictColumn;
  /** `failure_mode`: a failing rollout's signature name, null for one that earned its reward. */
  failure: DictColumn;
  /** `failure_features` as the index keeps them, joined by spaces: few distinct sets, so a dictionary too. */
  features: DictColumn;
  rolloutId: BlobColumn;
  line: Uint32Array;
  /** Byte offsets may pass 4 GiB; a double holds every integer up to 2^53 exactly. */
  offset: Float64Array;
  length: Uint32Array;
  /** NO_STEP when null. */
  step: Int32Array;
  inSignal: Uint8Array;
  /** NaN when null (JSON has no NaN, so it cannot be a recorded reward). */
  reward: Float64Array;
  /** The counts: narrow while their values are small (`setCounts` widens them). */
  steps: Unsigned;
  generated: Unsigned;
  regressions: Unsigned;
  errors: Unsigned;
  warnings: Unsigned;
  truncated: Uint8Array;
  /**
   * The rollout's finding codes, as the id of a set in `codeSets` (0: none). A run has few distinct sets,
   * so a row costs a byte or two however many codes exist (a bit mask held 32 codes and dropped the rest).
   * Read after `setOf()`: a new set may widen it.
   */
  codeSet: Unsigned;
  /** Each distinct set of codes, as ascending indices into `codeNames`; set 0 is empty. */
  readonly codeSets: number[][] = [[]];
  readonly codeNames: string[] = [];
  private readonly codeIds = new Map<string, number>();
  private readonly setIds = new Map<string, number>([['', 0]]);
  /** §10's compared positions; -1 for a rollout with no training record. */
  mismatchN: Int32Array;
  /** NaN when null. */
  mismatchMax: Float32Array;
  klK3: Float32Array;

  constructor(capacity = 1024) {
    this.capacity = capacity;
    this.file = new DictColumn(capacity);
    this.task = new DictColumn(capacity);
    this.attempt = new DictColumn(capacity);
    this.group = new DictColumn(capacity);
    this.policy = new DictColumn(capacity);
    this.termination = new DictColumn(capacity);
    this.format = new DictColumn(capacity);
    this.failure = new DictColumn(capacity);
    this.features = new DictColumn(capacity);
    this.rolloutId = new BlobColumn(capacity);
    this.line = new Uint32Array(capacity);
    this.offset = new Float64Array(capacity);
    this.length = new Uint32Array(capacity);
    this.step = new Int32Array(capacity);
    this.inSignal = new Uint8Array(capacity);
    this.reward = new Float64Array(capacity);
    this.steps = new Uint8Array(capacity);
    this.generated = new Uint8Array(capacity);
    this.regressions = new Uint8Array(capacity);
    this.errors = new Uint8Array(capacity);
    this.warnings = new Uint8Array(capacity);
    this.truncated = new Uint8Array(capacity);
    this.codeSet = new Uint8Array(capacity);
    this.mismatchN = new Int32Array(capacity);
    this.mismatchMax = new Float32Array(capacity);
    this.klK3 = new Float32Array(capacity);
  }

  /** Rows `at ... at + rows - 1` have been written: `n` moves past them, `sortedTo` learns their order. */
  appended(at: number, rows: number): void {
    const step = this.step;
    if (this.sortedTo === Number.POSITIVE_INFINITY) {
      for (let i = Math.max(at, 1); i < at + rows; i++) {
        if ((step[i] ?? 0) < (step[i - 1] ?? 0)) {
          this.sortedTo = i;
          break;
        }
      }
    }
    this.n = at + rows;
  }

  /**
   * Makes room for `rows` more rows (grows by half again at least, so appends stay amortised). Every
   * write goes to a row reserved first: a column widened copies only those.
   */
  reserve(rows: number): void {
    const need = this.n + rows;
    this.used = need;
    for (const d of this.dicts()) d.used = need;
    if (need <= this.capacity) return;
    const c = Math.max(need, Math.ceil(this.capacity * 1.5));
    for (const d of this.dicts()) d.grow(c);
    this.rolloutId.grow(c);
    this.line = grown(this.line, c);
    this.offset = grown(this.offset, c);
    this.length = grown(this.length, c);
    this.step = grown(this.step, c);
    this.inSignal = grown(this.inSignal, c);
    this.reward = grown(this.reward, c);
    this.steps = grown(this.steps, c);
    this.generated = grown(this.generated, c);
    this.regressions = grown(this.regressions, c);
    this.errors = grown(this.errors, c);
    this.warnings = grown(this.warnings, c);
    this.truncated = grown(this.truncated, c);
    this.codeSet = grown(this.codeSet, c);
    this.mismatchN = grown(this.mismatchN, c);
    this.mismatchMax = grown(this.mismatchMax, c);
    this.klK3 = grown(this.klK3, c);
    this.capacity = c;
  }

  private dicts(): DictColumn[] {
    return DICTS.map((d) => this[d]);
  }

  /** The index of a finding code in `codeNames` (added on first sight). */
  codeIndex(code: string): number {
    let k = this.codeIds.get(code);
    if (k === undefined) {
      k = this.codeNames.length;
      this.codeNames.push(code);
      this.codeIds.set(code, k);
    }
    return k;
  }

  /** The id of a set of code indices in `codeSets` (added on first sight); order and repeats do not matter. */
  setOf(indices: readonly number[]): number {
    const set = [...new Set(indices)].sort((x, y) => x - y);
    const key = set.join(',');
    let id = this.setIds.get(key);
    if (id === undefined) {
      id = this.codeSets.length;
      this.codeSets.push(set);
      this.setIds.set(key, id);
      this.codeSet = widened(this.codeSet, id, this.used);
    }
    return id;
  }

  /** Writes one count column's values at rows `at ...`, widening it first if one needs more bytes. */
  setCounts(key: CountColumn, values: ArrayLike<number>, at: number): void {
    const column = widened(this[key], maxOf(values), this.used);
    column.set(values, at);
    this[key] = column;
  }

  /** Bytes held by the columns (what `performance.memory` should roughly show for a large run). */
  get byteLength(): number {
    const typed = [
      this.line,
      this.offset,
      this.length,
      this.step,
      this.inSignal,
      this.reward,
      this.steps,
      this.generated,
      this.regressions,
      this.errors,
      this.warnings,
      this.truncated,
      this.codeSet,
      this.mismatchN,
      this.mismatchMax,
      this.klK3,
    ].reduce((s, a) => s + a.byteLength, 0);
    const dicts = this.dicts().reduce((s, d) => s + d.codes.byteLength, 0);
    return typed + dicts + this.rolloutId.byteLength;
  }
}

/** The count columns held as `Unsigned`. */
const COUNTS = ['steps', 'generated', 'regressions', 'errors', 'warnings'] as const;
export type CountColumn = (typeof COUNTS)[number];

export const DICTS = ['file', 'task', 'attempt', 'group', 'policy', 'termination', 'format', 'failure', 'features'] as const;
export const NUMERIC = [
  'line',
  'offset',
  'length',
  'step',
  'inSignal',
  'reward',
  'steps',
  'generated',
  'regressions',
  'errors',
  'warnings',
  'truncated',
  'mismatchN',
  'mismatchMax',
  'klK3',
] as const;

/** Rows of one shard (a row group) decoded on another thread (shard.worker.ts): plain arrays and dictionaries, transferable. */
export interface ShardPart {
  rows: number;
  dicts: Record<(typeof DICTS)[number], { values: (string | null)[]; codes: Unsigned }>;
  numeric: Record<(typeof NUMERIC)[number], Typed>;
  rolloutId: { bytes: Uint8Array; ends: Uint32Array };
  codeNames: string[];
  codeSets: number[][];
  codeSet: Unsigned;
}

/** The buffers of a part, to transfer rather than copy. */
export function partBuffers(p: ShardPart): ArrayBuffer[] {
  return [
    ...Object.values(p.dicts).map((d) => d.codes.buffer),
    ...Object.values(p.numeric).map((a) => a.buffer),
    p.rolloutId.bytes.buffer,
    p.rolloutId.ends.buffer,
    p.codeSet.buffer,
  ] as ArrayBuffer[];
}

/** Appends a decoded part: its dictionary codes mapped onto the run's, its finding-code sets too. */
export function mergePart(c: RunColumns, p: ShardPart): void {
  c.reserve(p.rows);
  const at = c.n;
  for (const d of DICTS) {
    const mine = c[d];
    // Coded first: a value new to the run may widen the column written below.
    const map = p.dicts[d].values.map((v) => mine.code(v));
    const codes = p.dicts[d].codes;
    const into = mine.codes;
    for (let i = 0; i < p.rows; i++) into[at + i] = map[codes[i] ?? 0] ?? 0;
  }
  const counts: readonly string[] = COUNTS;
  for (const k of NUMERIC) {
    if (counts.includes(k)) c.setCounts(k as CountColumn, p.numeric[k], at);
    else (c[k] as Typed).set(p.numeric[k] as never, at);
  }
  c.rolloutId.appendBytes(p.rolloutId.bytes, p.rolloutId.ends, at);
  const index = p.codeNames.map((code) => c.codeIndex(code));
  const sets = p.codeSets.map((set) => c.setOf(set.map((k) => index[k] ?? 0)));
  const codeSet = c.codeSet;
  for (let i = 0; i < p.rows; i++) codeSet[at + i] = sets[p.codeSet[i] ?? 0] ?? 0;
  c.appended(at, p.rows);
}
