import type { RunManifest } from '../../format';
import type { Dataset, DatasetFeed } from '../dataset/dataset';
import { RangeReader } from './rangeRead';
import { type RunDatasetContext, runDataset, type StepRange } from './runDataset';
import { type RunSnapshot, readRun } from './runIndex';
import { IndexPending } from './shardBytes';
import { shardWorker, workerShardDecoder } from './shardDecoder';

/** How often a run is checked for new shards (a training job writes a step every few minutes). */
const POLL_MS = 5000;
/** How often to ask again while the server builds the first index. */
const BUILDING_POLL_MS = 1000;
/** Records read by range kept at once (each a whole rollout). */
const RECORDS_KEPT = 64;

export interface RunState {
  snapshot: RunSnapshot | null;
  /** Why the run could not be read (or re-read), or null. */
  error: string | null;
  /** Still reading shards (the snapshot, if any, is partial). */
  loading: boolean;
  /** Set once a host answered a range request with the whole file: every rollout read there costs its whole file. */
  rangesIgnored: string | null;
  /** The server is still building the run's first index (`trajscope view`). */
  building: boolean;
  /**
   * The manifest, once read, while no snapshot has come yet: what the run page shows while the first
   * shard is read (and when it lays out its first chart, so the shards are asked for first).
   */
  manifest: RunManifest | null;
}

/**
 * One run opened from its manifest URL: its latest snapshot, kept fresh by polling the manifest while
 * anyone listens, and the range reader and record cache every view of it shares.
 */
export class RunSource {
  private state: RunState = { snapshot: null, error: null, loading: true, rangesIgnored: null, building: false, manifest: null };
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private readonly datasets = new Map<string, Dataset>();
  readonly ctx: RunDatasetContext;

  constructor(
    readonly manifestUrl: string,
    private readonly fetchImpl?: typeof globalThis.fetch,
  ) {
    const records = new Map();
    this.ctx = {
      reader: new RangeReader({ fetch: fetchImpl, onRangesIgnored: (url) => this.set({ rangesIgnored: url }) }),
      records: boundedMap(records, RECORDS_KEPT),
    };
  }

  get current(): RunState {
    return this.state;
  }

  subscribe = (onChange: () => void): (() => void) => {
    this.listeners.add(onChange);
    if (this.listeners.size === 1) void this.refresh();
    return () => {
      this.listeners.delete(onChange);
      if (this.listeners.size === 0 && this.timer !== null) {
        clearTimeout(this.timer);
        this.timer = null;
      }
    };
  };

  getState = (): RunState => this.state;

  private set(patch: Partial<RunState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** Reads what changed in the run since the last snapshot; then checks again after a while. */
  refresh(): Promise<void> {
    this.running ??= (async () => {
      if (!this.fetchImpl) shardWorker();
      try {
        const next = await readRun(this.manifestUrl, this.state.snapshot, {
          fetch: this.fetchImpl,
          // A page's own fetch goes to a worker with the decoding; a test's fetch stays on its thread.
          ...(this.fetchImpl ? {} : { decode: workerShardDecoder }),
          onProgress: (snapshot) => this.set({ snapshot, loading: true, manifest: null }),
          onManifest: (manifest) => {
            if (!this.state.snapshot) this.set({ manifest });
          },
        });
        if (next.version !== this.state.snapshot?.version || this.state.loading || this.state.error) {
          this.set({ snapshot: next, loading: false, error: null, building: false, manifest: null });
        }
      } catch (e) {
        if (e instanceof IndexPending) this.set({ building: true, loading: true, error: null });
        else this.set({ error: e instanceof Error ? e.message : String(e), loading: false, building: false });
      } finally {
        this.running = null;
        const wait = this.state.building ? BUILDING_POLL_MS : POLL_MS;
        if (this.listeners.size > 0) this.timer = setTimeout(() => void this.refresh(), wait);
      }
    })();
    return this.running;
  }

  /** The Dataset of the current snapshot's rows in the range, the same object while neither changes. */
  dataset(range: StepRange | null): Dataset | undefined {
    const snap = this.state.snapshot;
    if (!snap) return undefined;
    const key = `${snap.version}:${range ? `${range.from}-${range.to}` : 'all'}`;
    let d = this.datasets.get(key);
    if (!d) {
      if (this.datasets.size > 8) this.datasets.clear();
      d = runDataset(snap, range, this.ctx);
      this.datasets.set(key, d);
    }
    return d;
  }

  /** A feed of this run's rows in the range, for the views that read a Dataset. */
  feed(range: StepRange | null): DatasetFeed {
    return { current: () => this.dataset(range), subscribe: this.subscribe };
  }
}

/** A Map that forgets its oldest entry past `limit`. */
function boundedMap<K, V>(map: Map<K, V>, limit: number): Map<K, V> {
  const set = map.set.bind(map);
  map.set = (k: K, v: V) => {
    set(k, v);
    if (map.size > limit) {
      const oldest = map.keys().next();
      if (!oldest.done) map.delete(oldest.value);
    }
    return map;
  };
  return map;
}

const sources = new Map<string, RunSource>();

/** The one RunSource of a manifest URL in this page. */
export function runSource(manifestUrl: string): RunSource {
  let s = sources.get(manifestUrl);
  if (!s) {
    s = new RunSource(manifestUrl);
    sources.set(manifestUrl, s);
  }
  return s;
}
