import { availableParallelism } from 'node:os';
import { plural } from '../analysis';
import type { ReadOptions } from '../format';
import { buildIndex } from './runIndex/build';
import type { Catalog } from './server/catalog';
import { ChangeFeed } from './server/changes';

/**
 * When `trajscope view` opens a run page rather than a list of files: one directory named alone that
 * holds two or more trajectory files (a training job's directory, one file per step or per worker).
 * A single file, several paths, or a directory of one file keep the file flow; `--files` forces it.
 */
export async function isRun(paths: readonly string[], catalog: Catalog): Promise<boolean> {
  if (paths.length !== 1) return false;
  const files = await catalog.list();
  return files.length >= 2 && files.every((f) => f.id.startsWith('d0/'));
}

/** How often, at most, `view` logs that a live run's index grew. */
const LOG_EVERY_MS = 10_000;

/**
 * Builds the run's index, then keeps it fresh while the server runs: a pass runs whenever the run's files
 * change (file-system notifications with the view server's slow fallback poll, so an idle run costs
 * nothing), and re-reads only what changed (a grown file from its last line). The page polls the manifest.
 */
export function keepIndexed(
  runDir: string,
  indexDir: string,
  read: ReadOptions,
  catalog: Catalog,
  signal: AbortSignal,
  log: (s: string) => void,
) {
  let built = false;
  let first = true;
  let running: Promise<void> | null = null;
  let again = false;
  const jobs = Math.max(1, Math.min(4, availableParallelism()));
  const growth = new GrowthLog(log);
  const timer = setInterval(() => growth.tick(), LOG_EVERY_MS);
  timer.unref();
  signal.addEventListener('abort', () => {
    clearInterval(timer);
    growth.flush();
  });
  const pass = async () => {
    const started = Date.now();
    try {
      const outcome = await buildIndex({ inputs: [runDir], outDir: indexDir, jobs, read });
      if (first) {
        log(
          `indexed ${plural(outcome.rows, 'rollout')} from ${plural(outcome.manifest.files.length, 'file')} ` +
            `(${outcome.indexed} indexed, ${outcome.resumed} read on, ${outcome.reused} unchanged) in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${indexDir}`,
        );
      } else if (outcome.indexed + outcome.resumed > 0) growth.grew(outcome.rows);
      growth.at(outcome.rows);
    } catch (e) {
      log(`indexing failed: ${e instanceof Error ? e.message : String(e)} (trying again on the next change)`);
    }
    built = true;
    first = false;
  };
  const schedule = () => {
    if (signal.aborted) return;
    if (running) {
      again = true;
      return;
    }
    running = pass().finally(() => {
      running = null;
      if (again) {
        again = false;
        schedule();
      }
    });
  };
  // The files as the catalog lists them, with sizes and times: the index's own folder (a dot-name) is not among them.
  const feed = new ChangeFeed({
    snapshot: async () => JSON.stringify((await catalog.list()).map((f) => [f.id, f.size, f.mtimeMs])),
    roots: () => catalog.watchRoots(),
    announce: schedule,
  });
  const leave = feed.listen();
  signal.addEventListener('abort', leave);
  return { building: () => !built };
}

/**
 * What `view` says of a live run's index after its first pass: a run changes with every rollout written,
 * so the updates are summed and said at most once per LOG_EVERY_MS (it printed a line per rollout, issue 31).
 */
export class GrowthLog {
  private pending: { since: number; updates: number; before: number; rows: number } | null = null;
  private rows = 0;

  constructor(
    private readonly log: (s: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The index holds `rows` rollouts after a pass (changed or not). */
  at(rows: number): void {
    this.rows = rows;
  }

  /** A pass read something new; the index now holds `rows`. */
  grew(rows: number): void {
    this.pending ??= { since: this.now(), updates: 0, before: this.rows, rows };
    this.pending.updates++;
    this.pending.rows = rows;
  }

  /** Called every LOG_EVERY_MS: says what grew once the oldest unsaid update is that old. */
  tick(): void {
    if (this.pending && this.now() - this.pending.since >= LOG_EVERY_MS) this.flush();
  }

  flush(): void {
    const p = this.pending;
    if (!p) return;
    this.pending = null;
    this.log(`+${plural(p.rows - p.before, 'rollout')} in ${plural(p.updates, 'update')} of the index (${plural(p.rows, 'rollout')} now)`);
  }
}
