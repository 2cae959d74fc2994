import { FailureModes, type FailureModesResult } from '../../analysis';
import { NO_STEP } from './runColumns';
import type { StepRange } from './runDataset';
import type { RunSnapshot } from './runIndex';

/** Rows counted between yields to the page: well under 50 ms of work on a slow machine. */
const ROWS_PER_SLICE = 65_536;

interface Bucket {
  count: number;
  /** The first row counted into it: the mode's exemplar. */
  row: number;
}

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** `map.get(key)`, made when absent. */
function child<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

/**
 * The failure modes of a run's rows (those of `range`, every row without one), from the index's columns
 * alone: each row's `failure_mode` and `failure_features` are dictionary codes, so the rows are first
 * counted by (signature, features, training step, task) in typed arithmetic, and only those counts go
 * through `FailureModes` (weighted): a million rows that repeat a few hundred signatures are a few
 * thousand inputs. The counting yields to the page every ROWS_PER_SLICE rows; `signal` stops it.
 * The same modes `trajscope modes` gives for the records (committedRun.test.ts checks it on the demo run).
 */
export async function runFailureModes(snap: RunSnapshot, range: StepRange | null, signal?: AbortSignal): Promise<FailureModesResult> {
  const c = snap.columns;
  const none = c.failure.find(null);
  const passingByStep = new Map<number, number>();
  // signature code -> features code -> (step, task) -> bucket; the steps and tasks of one signature are few.
  const failing = new Map<number, Map<number, Map<string, Bucket>>>();
  for (let from = 0; from < snap.rows; from += ROWS_PER_SLICE) {
    if (from > 0) await pause();
    signal?.throwIfAborted();
    const to = Math.min(snap.rows, from + ROWS_PER_SLICE);
    for (let row = from; row < to; row++) {
      const step = c.step[row] ?? NO_STEP;
      if (range !== null && (step < range.from || step > range.to)) continue;
      const code = c.failure.codes[row] ?? none;
      if (code === none) {
        passingByStep.set(step, (passingByStep.get(step) ?? 0) + 1);
        continue;
      }
      const byFeatures = child(failing, code, () => new Map<number, Map<string, Bucket>>());
      const byStepTask = child(byFeatures, c.features.codes[row] ?? 0, () => new Map<string, Bucket>());
      const bucket = child(byStepTask, `${step} ${c.task.codes[row] ?? 0}`, () => ({ count: 0, row }));
      bucket.count++;
    }
  }
  // Fed in the order of each bucket's first row: Drain mines each distinct line once, at its first
  // appearance, and a mode is made by its first rollout, so this order gives the modes (and their names)
  // that reading the rows one by one would.
  const buckets: { code: number; featuresCode: number; count: number; row: number }[] = [];
  for (const [code, byFeatures] of failing) {
    for (const [featuresCode, byStepTask] of byFeatures) for (const b of byStepTask.values()) buckets.push({ code, featuresCode, ...b });
  }
  buckets.sort((a, b) => a.row - b.row);
  const modes = new FailureModes();
  const stepOf = (s: number) => (s === NO_STEP ? null : s);
  for (const [step, count] of passingByStep)
    modes.addInput({ failure: null, step: stepOf(step), task_id: '', key: '', file: '', line: 0 }, count);
  for (const { code, featuresCode, count, row } of buckets) {
    const joined = c.features.values[featuresCode] ?? '';
    const failure = { name: c.failure.values[code] ?? '', features: joined === '' ? [] : joined.split(' ') };
    const id = c.rolloutId.at(row);
    const attempt = c.attempt.at(row);
    modes.addInput(
      {
        failure,
        step: stepOf(c.step[row] ?? NO_STEP),
        task_id: c.task.at(row) ?? '',
        key: attempt === null ? id : `${id}#${attempt}`,
        file: c.file.at(row) ?? '',
        line: c.line[row] ?? 0,
      },
      count,
    );
  }
  return modes.result();
}
