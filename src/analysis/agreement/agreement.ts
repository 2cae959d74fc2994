import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED } from '../compare/bootstrap';
import { type BootstrapOptions, bootstrapKappa, type Confusion, confusion, kappaOfCounts, orderLabels } from './kappa';
import type { ItemKey, Rater } from './raters';

/** One pair's numbers over a set of items both raters labelled. */
export interface PairStats extends Confusion {
  agreement: number | null;
  expected: number | null;
  /** Null when n = 0 or when expected agreement is 1 (`kappaUndefined`). */
  kappa: number | null;
  /** n > 0 but both raters gave every item one and the same label: kappa is 0/0. */
  kappaUndefined: boolean;
  interval: [number, number] | null;
  undefinedResamples: number;
}

export interface PairAgreement {
  /** Rater ids: `a` is the rows of the confusion table, `b` its columns. */
  a: string;
  b: string;
  /** Items one of the two labelled and the other did not (not in n). */
  onlyA: number;
  onlyB: number;
  overall: PairStats;
  /** The items the two labelled differently, in the first rater's order: where to look first. */
  disagreements: { key: ItemKey; task: string; a: string; b: string }[];
  /** Tasks in name order, each with the items of the pair in it (a task with none is left out). */
  tasks: { task: string; stats: PairStats }[];
}

export interface AgreementReport {
  raters: { id: string; kind: Rater['kind']; source: string; labelled: number; excluded: [string, number][] }[];
  pairs: PairAgreement[];
  bootstrap: BootstrapOptions;
}

const AGREEMENT_LEVEL = 0.95;
/** Items with no task known (a regrade row or review of a rollout the records do not have). */
const NO_TASK = '(no task)';

/**
 * Agreement between every pair of raters (in the order given: `raters[i]` x `raters[j]`, i < j), over
 * the items both labelled: the confusion table over the labels either used, observed agreement, Cohen's
 * kappa (`kappaOfCounts`) and its percentile bootstrap interval over items (`bootstrapKappa`, seeded),
 * overall and per task (`tasks`: each item's task_id). Every per-task interval uses the same seed.
 */
export function agreement(
  raters: readonly Rater[],
  tasks: ReadonlyMap<ItemKey, string>,
  options: Partial<BootstrapOptions> = {},
): AgreementReport {
  const bootstrap: BootstrapOptions = {
    seed: options.seed ?? BOOTSTRAP_SEED,
    resamples: options.resamples ?? BOOTSTRAP_RESAMPLES,
    level: options.level ?? AGREEMENT_LEVEL,
  };
  const pairs: PairAgreement[] = [];
  for (let i = 0; i < raters.length; i++) {
    for (let j = i + 1; j < raters.length; j++) {
      const a = raters[i];
      const b = raters[j];
      if (a && b) pairs.push(pairOf(a, b, tasks, bootstrap));
    }
  }
  return {
    raters: raters.map((r) => ({
      id: r.id,
      kind: r.kind,
      source: r.source,
      labelled: r.labels.size,
      excluded: [...r.excluded].sort(([x, m], [y, n]) => n - m || (x < y ? -1 : 1)),
    })),
    pairs,
    bootstrap,
  };
}

function pairOf(a: Rater, b: Rater, tasks: ReadonlyMap<ItemKey, string>, o: BootstrapOptions): PairAgreement {
  const both: { key: ItemKey; task: string; la: string; lb: string }[] = [];
  for (const [key, la] of a.labels) {
    const lb = b.labels.get(key);
    if (lb !== undefined) both.push({ key, task: tasks.get(key) ?? NO_TASK, la, lb });
  }
  const labels = orderLabels(both.flatMap((x) => [x.la, x.lb]));
  const byTask = new Map<string, typeof both>();
  for (const x of both) {
    const list = byTask.get(x.task);
    if (list) list.push(x);
    else byTask.set(x.task, [x]);
  }
  return {
    a: a.id,
    b: b.id,
    onlyA: a.labels.size - both.length,
    onlyB: b.labels.size - both.length,
    overall: statsOf(both, labels, o),
    disagreements: both.filter((x) => x.la !== x.lb).map((x) => ({ key: x.key, task: x.task, a: x.la, b: x.lb })),
    tasks: [...byTask]
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
      .map(([task, items]) => ({ task, stats: statsOf(items, labels, o) })),
  };
}

function statsOf(items: readonly { la: string; lb: string }[], labels: readonly string[], o: BootstrapOptions): PairStats {
  const c = confusion(
    items.map((x) => [x.la, x.lb] as const),
    labels,
  );
  const k = kappaOfCounts(c.counts);
  const at = new Map(labels.map((l, i) => [l, i]));
  const ia = Int32Array.from(items, (x) => at.get(x.la) ?? 0);
  const ib = Int32Array.from(items, (x) => at.get(x.lb) ?? 0);
  const boot = bootstrapKappa(ia, ib, labels.length, o);
  return {
    ...c,
    ...k,
    kappaUndefined: c.n > 0 && k.kappa === null,
    interval: boot.interval,
    undefinedResamples: boot.undefinedResamples,
  };
}
