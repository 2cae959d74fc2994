import { availableParallelism } from 'node:os';
import { plural } from '../analysis';
import type { ReadOptions } from './readFile';
import { buildIndex } from './runIndex/build';
import type { Catalog } from './server/catalog';

/** How long the indexer rests between passes over a live run (an unchanged file costs one stat). */
const REFRESH_MS = 2000;

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

/**
 * Builds the run's index, then keeps it fresh while the server runs: each pass re-reads only what
 * changed (a grown file from its last line), and the page polls the manifest for new steps.
 */
export function keepIndexed(runDir: string, indexDir: string, read: ReadOptions, signal: AbortSignal, log: (s: string) => void) {
  let built = false;
  let first = true;
  const jobs = Math.max(1, Math.min(4, availableParallelism()));
  const pass = async () => {
    if (signal.aborted) return;
    const started = Date.now();
    try {
      const outcome = await buildIndex({ inputs: [runDir], outDir: indexDir, jobs, read });
      if (first || outcome.indexed + outcome.resumed > 0) {
        log(
          `indexed ${plural(outcome.rows, 'rollout')} from ${plural(outcome.manifest.files.length, 'file')} ` +
            `(${outcome.indexed} indexed, ${outcome.resumed} read on, ${outcome.reused} unchanged) in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${indexDir}`,
        );
      }
    } catch (e) {
      log(`indexing failed: ${e instanceof Error ? e.message : String(e)} (trying again)`);
    }
    built = true;
    first = false;
    if (!signal.aborted) setTimeout(() => void pass(), REFRESH_MS).unref();
  };
  void pass();
  return { building: () => !built };
}
