/**
 * The committed demo training run, public/demo/run/: one gzip file per GRPO update, made by
 * `trajscope demo --train` (public/demo/README.md). demoRun.test.ts holds this to the directory.
 */
export const DEMO_RUN_STEPS = 24;

function demoRunFileName(step: number): string {
  return `step_${String(step).padStart(4, '0')}.jsonl.gz`;
}

/** The run's files as source ids (URLs under the app's base), in step order. */
export function demoRunUrls(base: string = import.meta.env.BASE_URL): string[] {
  return Array.from({ length: DEMO_RUN_STEPS }, (_, s) => `${base}demo/run/${demoRunFileName(s)}`);
}

/** Whether `ids` open exactly the demo run. */
export function isDemoRun(ids: readonly string[], base: string = import.meta.env.BASE_URL): boolean {
  const urls = demoRunUrls(base);
  return ids.length === urls.length && ids.every((id, i) => id === urls[i]);
}
