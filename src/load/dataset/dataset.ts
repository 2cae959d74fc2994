import type { GroupSummary, LintReport, RolloutSummary } from '../../analysis';
import type { FieldMapping, Rollout } from '../../format';
import type { LoadedFile, PendingLine } from '../loadState';
import type { RunSnapshot } from '../run/runIndex';
import type { LoadSource } from '../sources';

/*
 * What the views read, whether the rollouts came from files read into this page or from a run index on a
 * server. The run list needs only the rows (summaries); a rollout's full record is asked for by key when
 * it is opened, and may arrive later.
 */

export type AdvantageMode = 'grpo' | 'dr';

/**
 * A rollout's full record: at once when it is in memory, a promise when it is read by range from a run
 * index. An implementation hands out the same value (the same promise) for the same key, so a caller
 * may ask on every render.
 */
type RolloutRead = Rollout | Promise<Rollout>;

export interface DatasetCounts {
  lines: number;
  rollouts: number;
  /** Error and warning findings of every rollout and group, and lines that did not load. */
  errors: number;
  warnings: number;
  /** Rollouts whose termination puts them in the policy signal. */
  inSignal: number;
  /** Rollouts per termination, in first-seen order. */
  terminations: ReadonlyArray<readonly [termination: string, rollouts: number]>;
  /** Findings about groups as a whole (already counted in `warnings`). */
  groupFindings: number;
}

/** One version of the data: every field belongs to the same moment; a change makes a new Dataset. */
export interface Dataset {
  /** Names the data (the same for each version of it): a cache key for what is read from it by key. */
  readonly id: string;
  /** The run list's rows: one summary per rollout, in file order. */
  readonly rows: readonly RolloutSummary[];
  /**
   * Row `index` alone: what one rollout's page reads, without the others (a run's step range makes its
   * rows' summaries when `rows` is first read: 1,000 of them in the click that opens one rollout).
   */
  row(index: number): RolloutSummary | undefined;
  /** The `rollout=` key of each row, index-aligned with `rows`. */
  readonly keys: readonly string[];
  /** Each row's `policy_version`, null when it has none. */
  readonly policies: readonly (string | null)[];
  /**
   * Each row's `training_step` as its record states it, null where it has none; absent when this kind of
   * dataset cannot say without reading the records.
   */
  readonly trainingSteps?: readonly (number | null)[];
  /**
   * The files whose bytes hold the rollouts, named as the rows' `file`, when they are not the page's open
   * sources (a run's files, by URL): what a text search reads.
   */
  readonly scanSources?: readonly LoadSource[];
  /** The field mapping those files are read with (a run indexed with `--map`); the URL's otherwise. */
  readonly scanMapping?: FieldMapping;
  /** GRPO group statistics, in first-seen order. */
  readonly groups: readonly GroupSummary[];
  readonly groupsById: ReadonlyMap<string, GroupSummary>;
  /** Each row's advantage in its group under the mode; null when it is not counted. */
  advantages(mode: AdvantageMode): readonly (number | null)[];
  /**
   * Row `index`'s GRPO group and its advantage under the mode, what one rollout's page shows: as
   * `groupsById` and `advantages` give them, but a run's step range works out that one group only.
   */
  groupOf(index: number, mode: AdvantageMode): { group: GroupSummary | undefined; advantage: number | null };
  readonly counts: DatasetCounts;
  readonly files: readonly LoadedFile[];
  /** Lines that did not load (E_PARSE, E_SCHEMA). */
  readonly problems: LintReport['parse_errors'];
  /** A followed file's half-written last line, held back. */
  readonly pending: readonly PendingLine[];
  /** The row a `rollout=` value points at (an exact key, else the first row it fits), or -1. */
  indexOf(key: string | null): number;
  /** The full record of the rollout with this key; undefined when there is none. */
  rollout(key: string): RolloutRead | undefined;
  /**
   * The summary of row `index` made from its record, where the row itself holds only what an index keeps
   * (counts, codes): the same analysis a loaded file's rows come from, so the Steps view, compare and the
   * list say the same. Absent when the rows are already whole (files read into the page).
   */
  summaryFromRecord?(index: number, record: Rollout): RolloutSummary;
  /**
   * What only a run read from its index has: the snapshot of its columns, every row of the run whatever
   * step range `rows` holds (the run page charts the whole run and chooses the range). Absent for files.
   */
  readonly run?: { readonly snapshot: RunSnapshot };
}

/** A dataset that changes: its current version, and word of the next one. */
export interface DatasetFeed {
  /** The current version; undefined until the first rows are read. */
  current(): Dataset | undefined;
  /** Calls `onChange` whenever `current()` may return another version; returns the unsubscribe. */
  subscribe(onChange: () => void): () => void;
}
