/**
 * The committed demo training run, public/demo/run/: one gzip file per GRPO update, made by
 * `trajscope demo --train` (public/demo/README.md), and its run index, public/demo/run-index/, made by
 * `trajscope index` (committedRun.test.ts holds both to what the commands make).
 *
 * Files and training steps differ by one: the sampler runs one update behind, so update 1 was sampled by
 * the same weights as update 0, and training step 0 holds two files. "Training step" always means the
 * weights that sampled (format §9), as the run page charts it.
 */
export const DEMO_RUN_FILES = 24;
export const DEMO_RUN_TRAINING_STEPS = DEMO_RUN_FILES - 1;

function demoRunFileName(step: number): string {
  return `step_${String(step).padStart(4, '0')}.jsonl.gz`;
}

/** The run's files as source ids (URLs under the app's base), in file order. */
export function demoRunUrls(base: string = import.meta.env.BASE_URL): string[] {
  return Array.from({ length: DEMO_RUN_FILES }, (_, s) => `${base}demo/run/${demoRunFileName(s)}`);
}

/** Where the page reads the demo run from: its committed index (`?run=`), which opens on the run page. */
export function demoRunIndex(base: string = import.meta.env.BASE_URL): string {
  return `${base}demo/run-index/`;
}

/** Whether `ids` open exactly the demo run's files (an older link: the run as a list of files). */
export function isDemoRun(ids: readonly string[], base: string = import.meta.env.BASE_URL): boolean {
  const urls = demoRunUrls(base);
  return ids.length === urls.length && ids.every((id, i) => id === urls[i]);
}
