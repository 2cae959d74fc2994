import {
  type CheckOptions,
  FINDING_INFO,
  type Finding,
  type FindingCode,
  type GroupMember,
  type GroupSummary,
  groupSummary,
  type RolloutSummary,
  summarizeRollout,
} from '../../analysis';
import { isFormatId, type LineReading, lineReading, parseScanRules, type Rollout } from '../../format';
import type { AdvantageMode, Dataset, DatasetCounts } from '../dataset/dataset';
import type { LoadedFile } from '../loadState';
import { findRollout, rolloutKeys } from '../rolloutKeys';
import { isHugeRecord } from '../scale';
import type { LoadSource } from '../sources';
import type { RangeReader } from './rangeRead';
import { NO_STEP, type RunColumns } from './runColumns';
import { type RunSnapshot, sourceUrl } from './runIndex';

/** Training steps `from` to `to`, inclusive: the part of a run the run list and groups show. */
export interface StepRange {
  from: number;
  to: number;
}

const once = <T>(make: () => T): (() => T) => {
  let v: { v: T } | null = null;
  return () => {
    v ??= { v: make() };
    return v.v;
  };
};

const INDEXED_NOTE = 'recorded by the run index; open the rollout for where and why';

function findingsOf(snap: RunSnapshot, row: number): Finding[] {
  const { codeSet, codeSets, codeNames } = snap.columns;
  return (codeSets[codeSet[row] ?? 0] ?? []).map((k) => {
    const code = (codeNames[k] ?? '') as FindingCode;
    const info = FINDING_INFO[code];
    return { code, severity: info?.severity ?? 'warning', segment: null, step: null, message: INDEXED_NOTE };
  });
}

/** The first of rows `0 ... end - 1`, in step order, whose step is more than `step` (`end` when none is). */
function after(steps: Int32Array, end: number, step: number): number {
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((steps[mid] ?? 0) <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The rows of the snapshot inside the range (every row without one), in index order. */
function rowsInRange(snap: RunSnapshot, range: StepRange | null): Uint32Array {
  const { step, sortedTo } = snap.columns;
  if (range === null) return Uint32Array.from({ length: snap.rows }, (_, i) => i);
  if (sortedTo >= snap.rows) {
    // Rows in step order: the range is one stretch of them (NO_STEP, -1, sorts first and is in no range).
    const from = after(step, snap.rows, range.from - 1);
    const to = after(step, snap.rows, range.to);
    return Uint32Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
  }
  let k = 0;
  const out = new Uint32Array(snap.rows);
  for (let i = 0; i < snap.rows; i++) {
    const s = step[i] ?? NO_STEP;
    if (s >= range.from && s <= range.to) out[k++] = i;
  }
  return out.slice(0, k);
}

function summaryOf(snap: RunSnapshot, row: number): RolloutSummary {
  const c = snap.columns;
  const reward = c.reward[row] ?? Number.NaN;
  return {
    file: c.file.at(row) ?? '',
    line: c.line[row] ?? 0,
    task_id: c.task.at(row) ?? '',
    rollout_id: c.rolloutId.at(row),
    attempt_id: c.attempt.at(row),
    group_id: c.group.at(row) ?? '',
    termination: c.termination.at(row) ?? '',
    in_signal: c.inSignal[row] === 1,
    reward: Number.isNaN(reward) ? null : reward,
    steps: c.steps[row] ?? 0,
    regressions: [],
    findings: findingsOf(snap, row),
    indexed: { regressions: c.regressions[row] ?? 0, errors: c.errors[row] ?? 0, warnings: c.warnings[row] ?? 0 },
    ...mismatchOf(c, row),
    ...failureOf(c, row),
  };
}

/** The failure signature the index keeps (the same `summarizeRollout` gives a file's rollout). */
function failureOf(c: RunColumns, row: number): Pick<RolloutSummary, 'failure'> {
  const name = c.failure.at(row);
  if (name === null) return {};
  const features = c.features.at(row) ?? '';
  return { failure: { name, features: features === '' ? [] : features.split(' ') } };
}

/**
 * §10 as the index keeps it for the run views: the compared positions, max |d| and k3. The other three
 * statistics are in the Parquet shards (SQL) and in the rollout itself, so they are null here.
 */
function mismatchOf(c: RunColumns, row: number): Pick<RolloutSummary, 'mismatch'> {
  const n = c.mismatchN[row] ?? -1;
  if (n < 0) return {};
  const orNull = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? null : x);
  return {
    mismatch: {
      n,
      mean_abs: null,
      max_abs: orNull(c.mismatchMax[row]),
      ratio_mean: null,
      ratio_clip_frac: null,
      kl_k3: orNull(c.klK3[row]),
    },
  };
}

function memberOf(r: RolloutSummary, policy: string | null | undefined): GroupMember {
  return {
    rolloutId: r.rollout_id,
    attemptId: r.attempt_id,
    inSignal: r.in_signal,
    unknown: r.termination === 'unknown',
    reward: r.reward,
    policy: policy ?? undefined,
    // The index keeps no sampling or environment: groups are not compared on them here.
    env: undefined,
    sampling: '',
  };
}

/** Group statistics over the rows shown (§6, as lint computes them; a group is whole inside a step). */
function groupsOf(rows: readonly RolloutSummary[], policies: readonly (string | null)[], mode: AdvantageMode): GroupSummary[] {
  const members = new Map<string, GroupMember[]>();
  rows.forEach((r, i) => {
    let list = members.get(r.group_id);
    if (!list) {
      list = [];
      members.set(r.group_id, list);
    }
    list.push(memberOf(r, policies[i]));
  });
  return [...members].map(([id, m]) => groupSummary(id, m, mode === 'grpo'));
}

/**
 * The members of row `i`'s group alone, in row order, as `groupsOf` collects them: a rollout opened by range
 * needs its own group's statistics, and all of a step's groups took 10-15 ms of the click (issue 25).
 */
/** Row `i`'s group and its members in the range, found by the group column's codes (no row made but theirs). */
function oneGroupMembers(snap: RunSnapshot, index: Uint32Array, rowAt: (i: number) => RolloutSummary | undefined, i: number) {
  const { group, policy } = snap.columns;
  const r = rowAt(i);
  if (r === undefined) return undefined;
  const id = r.group_id;
  const members: GroupMember[] = [];
  index.forEach((row, k) => {
    // As the summaries name it (a row without a group is in group ''), read from the column's own strings.
    const m = (group.at(row) ?? '') === id ? rowAt(k) : undefined;
    if (m) members.push(memberOf(m, policy.at(row)));
  });
  return { id, members };
}

/** lint's advantage keys: rollout_id, `#attempt_id` when a group holds two attempts of one rollout. */
function advantageIn(g: GroupSummary | undefined, r: RolloutSummary): number | null {
  if (!g) return null;
  return g.advantages[r.rollout_id] ?? g.advantages[`${r.rollout_id}#${r.attempt_id ?? ''}`] ?? null;
}

function advantagesOf(rows: readonly RolloutSummary[], keysByGroup: Map<string, GroupSummary>): (number | null)[] {
  return rows.map((r) => advantageIn(keysByGroup.get(r.group_id), r));
}

let preloading = false;

/**
 * Loads the line readers' script at the first idle moment after the run page's first chart, so the
 * first rollout opened by range does not wait for it (it took that open from 130 to 167 ms, `npm run
 * bench`), nor the first chart for it.
 */
export function preloadLineReading(): void {
  if (preloading || typeof requestIdleCallback !== 'function') return;
  preloading = true;
  requestIdleCallback(() => void lineReading(), { timeout: 5000 });
}

export interface RunDatasetContext {
  reader: RangeReader;
  /** Records read so far, by `snapshot url + row`, shared by every version and range of one run. */
  records: Map<string, Promise<Rollout>>;
}

/**
 * The rows of one run snapshot in a step range, as the views read a Dataset. Summaries, keys and groups
 * are made on first read, for the rows in the range only: the run page reads the columns and never these.
 */
export function runDataset(snap: RunSnapshot, range: StepRange | null, ctx: RunDatasetContext): Dataset {
  const c = snap.columns;
  const index = once(() => rowsInRange(snap, range));
  // Each row's summary made when first read: one rollout's page reads its own row, its group's and the
  // keys (from the identity columns), not the step's 1,000 summaries (17-35 ms of the click that opens it).
  const made: (RolloutSummary | undefined)[] = [];
  const summaryAt = (i: number, row: number): RolloutSummary => (made[i] ??= summaryOf(snap, row));
  const rowAt = (i: number): RolloutSummary | undefined => {
    const row = index()[i];
    return row === undefined ? undefined : summaryAt(i, row);
  };
  const rows = once(() => Array.from(index(), (row, i) => summaryAt(i, row)));
  const identities = once(() =>
    Array.from(index(), (row) => ({
      rollout_id: c.rolloutId.at(row),
      attempt_id: c.attempt.at(row),
      file: c.file.at(row) ?? '',
      line: c.line[row] ?? 0,
    })),
  );
  const keys = once(() => rolloutKeys(identities()));
  const policies = once(() => Array.from(index(), (row) => c.policy.at(row)));
  // The index's training_step: the record's, else the one §9 derives (file name, policy order).
  const trainingSteps = once(() => Array.from(index(), (row) => (c.step[row] === NO_STEP ? null : (c.step[row] ?? null))));
  // Only the files that hold rows in range: a hit elsewhere would have no row to show.
  const scanSources = once((): LoadSource[] => {
    const held = new Set(Array.from(index(), (row) => c.file.at(row)));
    return snap.manifest.files
      .filter((f) => held.has(f.file))
      .map((f) => {
        const url = sourceUrl(snap.manifestUrl, snap.manifest.source_base, f.file);
        return { kind: 'url', id: url, name: f.file, url };
      });
  });
  const groups = { grpo: once(() => groupsOf(rows(), policies(), 'grpo')), dr: once(() => groupsOf(rows(), policies(), 'dr')) };
  const byId = once(() => new Map(groups.grpo().map((g) => [g.group_id, g])));
  const advantages = {
    grpo: once(() => advantagesOf(rows(), byId())),
    dr: once(() => advantagesOf(rows(), new Map(groups.dr().map((g) => [g.group_id, g])))),
  };
  const files = once((): LoadedFile[] =>
    snap.manifest.files.map((f) => ({
      name: f.file,
      bytes: f.size,
      lines: f.shards.reduce((n, s) => Math.max(n, s.to_line), 0),
      gzip: f.gzip,
    })),
  );
  const problems = once(() =>
    snap.manifest.files.flatMap((f) =>
      f.parse_errors.map((e) => ({
        file: f.file,
        line: e.line,
        code: e.code === 'E_SCHEMA' ? ('E_SCHEMA' as const) : ('E_PARSE' as const),
        message: e.message,
      })),
    ),
  );
  const counts = once((): DatasetCounts => {
    const terminations = new Map<string, number>();
    let inSignal = 0;
    let errors = problems().length;
    let warnings = 0;
    for (const r of rows()) {
      terminations.set(r.termination, (terminations.get(r.termination) ?? 0) + 1);
      if (r.in_signal) inSignal++;
      errors += r.indexed?.errors ?? 0;
      warnings += r.indexed?.warnings ?? 0;
    }
    const groupFindings = groups.grpo().reduce((n, g) => n + g.findings.length, 0);
    return {
      lines: snap.manifest.files.reduce((n, f) => n + f.shards.reduce((m, s) => Math.max(m, s.to_line), 0), 0),
      rollouts: rows().length,
      errors,
      warnings: warnings + groupFindings,
      inSignal,
      terminations: [...terminations],
      groupFindings,
    };
  });
  const indexOf = (key: string | null) => findRollout(identities(), keys(), key);
  const checks = once(() => checkOptionsOf(snap.manifest.options));
  const whole = new WeakMap<Rollout, RolloutSummary>();
  const gzipOf = new Map(snap.manifest.files.map((f) => [f.file, f.gzip]));
  const dataset: Dataset = {
    id: `run:${snap.manifestUrl}`,
    get rows() {
      return rows();
    },
    row: rowAt,
    get keys() {
      return keys();
    },
    get policies() {
      return policies();
    },
    get trainingSteps() {
      return trainingSteps();
    },
    get scanSources() {
      return scanSources();
    },
    ...(snap.manifest.mapping ? { scanMapping: snap.manifest.mapping } : {}),
    get groups() {
      return groups.grpo();
    },
    get groupsById() {
      return byId();
    },
    advantages: (mode) => advantages[mode](),
    groupOf(i, mode) {
      const row = rowAt(i);
      const one = oneGroupMembers(snap, index(), rowAt, i);
      if (!row || !one) return { group: undefined, advantage: null };
      // The members once; the statistics in GRPO (the group shown) and, for Dr. GRPO, again for its advantage.
      const grpo = groupSummary(one.id, one.members, true);
      return { group: grpo, advantage: advantageIn(mode === 'grpo' ? grpo : groupSummary(one.id, one.members, false), row) };
    },
    get counts() {
      return counts();
    },
    get files() {
      return files();
    },
    get problems() {
      return problems();
    },
    pending: [],
    // The whole snapshot, not the range: the run page reads every row whichever range the feed is for.
    run: { snapshot: snap },
    indexOf,
    summaryFromRecord(i, record) {
      const row = rowAt(i);
      if (!row) throw new Error(`no row ${i}`);
      // A huge record's summary would be one long task on the page: its row keeps the index's counts.
      if (isHugeRecord(record)) return row;
      let made = whole.get(record);
      if (!made) {
        // lint's per-rollout summary with the options the index was built with, so its counts are the row's.
        made = summarizeRollout({ file: row.file, line: row.line, record }, checks());
        whole.set(record, made);
      }
      return made;
    },
    rollout(key) {
      const i = indexOf(key);
      const row = index()[i];
      if (row === undefined) return undefined;
      return readRollout(snap, row, ctx, gzipOf.get(c.file.at(row) ?? '') ?? false);
    },
  };
  return dataset;
}

/**
 * The per-rollout check options an index was built with (`optionsKeyOf` in the CLI: `{read, rows}` as
 * JSON): the defaults where the manifest says nothing or something this page cannot read.
 */
export function checkOptionsOf(options: string | undefined): CheckOptions {
  let rows: unknown;
  try {
    rows = options === undefined ? null : (JSON.parse(options) as { rows?: unknown }).rows;
  } catch {
    return {};
  }
  if (typeof rows !== 'object' || rows === null) return {};
  const { driftThreshold, unknownAsFinished, isCap, rules } = rows as Record<string, unknown>;
  return {
    ...(typeof driftThreshold === 'number' ? { driftThreshold } : {}),
    ...(typeof unknownAsFinished === 'boolean' ? { unknownAsFinished } : {}),
    ...(typeof isCap === 'number' ? { isCap } : {}),
    // An index made with `--rules`: a rollout opened from it is scanned as its row was (a manifest is data:
    // rules that do not parse are left out, as a bad option is).
    ...(Array.isArray(rules) ? scanRulesFrom(rules) : {}),
  };
}

/** Reads one rollout by range and parses it with the reader a dropped file goes through. */
function readRollout(snap: RunSnapshot, row: number, ctx: RunDatasetContext, gzip: boolean): Promise<Rollout> {
  const c = snap.columns;
  const file = c.file.at(row) ?? '';
  const line = c.line[row] ?? 0;
  const cacheKey = `${snap.manifestUrl}\n${file}\n${line}\n${c.offset[row]}`;
  const known = ctx.records.get(cacheKey);
  if (known) return known;
  const url = sourceUrl(snap.manifestUrl, snap.manifest.source_base, file);
  const format = c.format.at(row);
  const offset = c.offset[row] ?? 0;
  const length = c.length[row] ?? 0;
  const { mapping } = snap.manifest;
  const parse = (bytes: Uint8Array, { createLineParser }: LineReading) => {
    // A row read by a field mapping is parsed with the mapping the manifest recorded (`index --map`).
    const how =
      format === 'mapped' && mapping ? { mapping } : format !== null && format !== 'mapped' && isFormatId(format) ? { from: format } : {};
    // A span at offset 0 may be the whole file (a document, an archive): its lines count from 1.
    const parser = createLineParser(file, { ...how, firstLine: offset === 0 ? 1 : line });
    const results = [...parser.push(bytes), ...parser.end()];
    // One span may hold several rollouts (an Atropos group's line, a whole .eval log): take this row's.
    const id = c.rolloutId.at(row);
    const attempt = c.attempt.at(row);
    const rollouts = results.filter((r) => r.kind === 'rollout');
    const rollout =
      rollouts.find((r) => r.value.record.rollout_id === id && (r.value.record.attempt_id ?? null) === attempt) ??
      rollouts.find((r) => r.value.record.rollout_id === id) ??
      (rollouts.length === 1 ? rollouts[0] : undefined);
    if (rollout?.kind === 'rollout') return rollout.value.record;
    const error = results.find((r) => r.kind === 'error');
    return error?.kind === 'error' ? error.value.message : 'no rollout at the indexed bytes';
  };
  const read = (async () => {
    if (format === 'mapped' && !mapping)
      throw new Error(`${file}:${line}: read by a field mapping that this index does not record: index the run again with --map`);
    // The line readers are not in the page's startup script: loaded after the run page's first chart
    // (`preloadLineReading`), else now, while the bytes are on their way.
    const [reading, got] = await Promise.all([
      lineReading(),
      ctx.reader.read(url, offset, length, gzip).then(
        (bytes) => ({ bytes }),
        (error: unknown) => ({ error }),
      ),
    ]);
    let found: Rollout | string;
    try {
      if ('error' in got) throw got.error;
      found = parse(got.bytes, reading);
    } catch (e) {
      // A plain file's range past its end (416, or fewer bytes) is a sign it changed too: ask below.
      if (gzip) throw e;
      found = e instanceof Error ? e.message : String(e);
    }
    if (typeof found !== 'string') return found;
    // A plain file's range that holds no rollout: the file may have been replaced by a gzip one since it
    // was indexed (same content, compressed), whose bytes cannot be entered mid-stream: read it whole.
    if (!gzip && (await ctx.reader.isGzip(url).catch(() => false))) {
      const again = await ctx.reader.read(url, offset, length, true).then(
        (bytes) => parse(bytes, reading),
        (e: Error) => e.message,
      );
      if (typeof again !== 'string') return again;
      throw new Error(`${file}:${line}: ${again} (the file is gzip now; it was plain when indexed: index the run again)`);
    }
    throw new Error(`${file}:${line}: ${found} (the file may have changed since it was indexed: index the run again)`);
  })();
  ctx.records.set(cacheKey, read);
  read.catch(() => ctx.records.delete(cacheKey));
  return read;
}

function scanRulesFrom(rules: unknown[]): Pick<CheckOptions, 'rules'> {
  try {
    return { rules: parseScanRules(JSON.stringify({ rules })) };
  } catch {
    return {};
  }
}
