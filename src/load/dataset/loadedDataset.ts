import { hashKey, type QueryClient } from '@tanstack/react-query';
import type { Rollout } from '../../format';
import { type CompactRollout, expandRollout } from '../compact';
import { lintReportOptions, loadKey } from '../lintReportQuery';
import type { LoadResult, ReadOptions } from '../loadState';
import { findRollout, rolloutKeys } from '../rolloutKeys';
import { isHugeRecord } from '../scale';
import type { LoadSource } from '../sources';
import type { AdvantageMode, Dataset, DatasetCounts, DatasetFeed } from './dataset';
import { expandInSlices } from './sliced';

// One dataset per load snapshot and one record per compact rollout, however many views ask: a live file's
// next snapshot keeps the compact rollouts it already had, so an open rollout keeps its record too.
const datasets = new WeakMap<LoadResult, Dataset>();
const expanded = new WeakMap<CompactRollout, Rollout>();
const expanding = new WeakMap<CompactRollout, Promise<Rollout>>();

/** The record, at once; a huge one (sliced.ts) as a promise the first time, then at once. */
function expand(compact: CompactRollout): Rollout | Promise<Rollout> {
  const known = expanded.get(compact);
  if (known) return known;
  if (isHugeRecord(compact)) {
    let read = expanding.get(compact);
    if (!read) {
      read = expandInSlices(compact, (record) => expanded.set(compact, record));
      expanding.set(compact, read);
    }
    return read;
  }
  const record = expandRollout(compact);
  expanded.set(compact, record);
  return record;
}

function countRows(result: LoadResult): DatasetCounts {
  const terminations = new Map<string, number>();
  let inSignal = 0;
  for (const r of result.report.rollouts) {
    terminations.set(r.termination, (terminations.get(r.termination) ?? 0) + 1);
    if (r.in_signal) inSignal++;
  }
  return {
    ...result.report.summary,
    inSignal,
    terminations: [...terminations],
    groupFindings: result.report.groups.reduce((n, g) => n + g.findings.length, 0),
  };
}

/** Lazily computed once, on first read. */
function once<T>(make: () => T): () => T {
  let value: { v: T } | null = null;
  return () => {
    value ??= { v: make() };
    return value.v;
  };
}

/** The dataset of files read into this page: everything in memory, each record expanded when first asked for. */
export function loadedDataset(result: LoadResult, id = ''): Dataset {
  const known = datasets.get(result);
  if (known) return known;
  const { report } = result;
  const keys = once(() => rolloutKeys(report.rollouts));
  const policies = once(() => result.records.map((r) => r.policy));
  const trainingSteps = once(() => result.records.map((r) => r.trainingStep));
  const groupsById = once(() => new Map(report.groups.map((g) => [g.group_id, g])));
  const counts = once(() => countRows(result));
  const indexOf = (key: string | null) => findRollout(report.rollouts, keys(), key);
  const advantages = (mode: AdvantageMode) => (mode === 'dr' ? result.advantages.drGrpo : result.advantages.grpo);
  const dataset: Dataset = {
    id,
    rows: report.rollouts,
    row: (index) => report.rollouts[index],
    get keys() {
      return keys();
    },
    get policies() {
      return policies();
    },
    get trainingSteps() {
      return trainingSteps();
    },
    groups: report.groups,
    get groupsById() {
      return groupsById();
    },
    advantages,
    groupOf(index, mode) {
      const row = report.rollouts[index];
      return {
        group: row && groupsById().get(row.group_id),
        advantage: advantages(mode)[index] ?? null,
      };
    },
    get counts() {
      return counts();
    },
    files: result.files,
    problems: report.parse_errors,
    pending: result.pending,
    indexOf,
    rollout(key) {
      const compact = result.records[indexOf(key)];
      return compact ? expand(compact) : undefined;
    },
  };
  datasets.set(result, dataset);
  return dataset;
}

/**
 * The files being read into this page, as a feed: each snapshot the load (or a live file's follower)
 * puts in the query cache is the next version.
 */
export function loadedFilesFeed(client: QueryClient, sources: readonly LoadSource[], read: ReadOptions = {}): DatasetFeed {
  const { queryKey } = lintReportOptions(sources, read);
  const hash = hashKey(queryKey);
  const id = loadKey(sources, read);
  return {
    current() {
      const result = sources.length > 0 ? client.getQueryData(queryKey) : undefined;
      return result ? loadedDataset(result, id) : undefined;
    },
    subscribe(onChange) {
      return client.getQueryCache().subscribe((event) => {
        if (event.query.queryHash === hash) onChange();
      });
    },
  };
}
