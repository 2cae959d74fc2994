import { FailureModes, type FailureModesResult } from '../../analysis';
import { NO_STEP } from './runColumns';
import type { StepRange } from './runDataset';
import type { RunSnapshot } from './runIndex';

/** Rows counted between yields to the page: well under 50 ms of work on a slow machine. */
const ROWS_PER_SLICE = 16_384;
/** Milliseconds of adding groups to FailureModes between yields to the page. */
const GROUPS_SLICE_MS = 8;
/** Exemplar rows kept per signature group (FailureModes keeps 3 per mode). */
const EXEMPLAR_ROWS = 3;

/** The rows of one signature and one set of features: counted per step and per task code. */
interface Group {
  code: number;
  featuresCode: number;
  rows: number[];
  steps: Map<number, number>;
  tasks: Map<number, number>;
}

const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The failure modes of a run's rows (those of `range`, every row without one), from the index's columns
 * alone: each row's `failure_mode` and `failure_features` are dictionary codes, so the rows are counted per
 * (signature, features) group by training step and by task in numeric maps, and only the groups go
 * through `FailureModes` (`addGroup`), in the order of their first rows: Drain mines each distinct line
 * once, at its first appearance, and a mode is made by its first rollout, so this order gives the modes
 * reading the rows one by one would. The counting yields to the page every ROWS_PER_SLICE rows; `signal`
 * stops it. The same modes `trajscope modes` gives for the records (runModes.test.ts checks the demo run).
 */
export async function runFailureModes(snap: RunSnapshot, range: StepRange | null, signal?: AbortSignal): Promise<FailureModesResult> {
  const c = snap.columns;
  const none = c.failure.find(null);
  const passingByStep = new Map<number, number>();
  const groups = new Map<number, Map<number, Group>>();
  const inOrder: Group[] = [];
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
      const featuresCode = c.features.codes[row] ?? 0;
      let byFeatures = groups.get(code);
      if (!byFeatures) {
        byFeatures = new Map();
        groups.set(code, byFeatures);
      }
      let g = byFeatures.get(featuresCode);
      if (!g) {
        g = { code, featuresCode, rows: [], steps: new Map(), tasks: new Map() };
        byFeatures.set(featuresCode, g);
        inOrder.push(g);
      }
      if (g.rows.length < EXEMPLAR_ROWS) g.rows.push(row);
      g.steps.set(step, (g.steps.get(step) ?? 0) + 1);
      const task = c.task.codes[row] ?? 0;
      g.tasks.set(task, (g.tasks.get(task) ?? 0) + 1);
    }
  }
  const modes = new FailureModes();
  const stepOf = (s: number) => (s === NO_STEP ? null : s);
  for (const [step, count] of passingByStep)
    modes.addInput({ failure: null, step: stepOf(step), task_id: '', key: '', file: '', line: 0 }, count);
  // The groups go through FailureModes in slices too: a run of 1,000 steps has hundreds of groups, each with a
  // count per step, and adding them at once was a task of 35-70 ms (npm run bench, the Failure modes page).
  let sliceStart = performance.now();
  for (const g of inOrder) {
    if (performance.now() - sliceStart > GROUPS_SLICE_MS) {
      await pause();
      signal?.throwIfAborted();
      sliceStart = performance.now();
    }
    const joined = c.features.values[g.featuresCode] ?? '';
    modes.addGroup({
      failure: { name: c.failure.values[g.code] ?? '', features: joined === '' ? [] : joined.split(' ') },
      steps: new Map([...g.steps].map(([s, n]) => [stepOf(s), n])),
      tasks: [...g.tasks].map(([t, n]) => [c.task.values[t] ?? '', n] as const),
      exemplars: g.rows.map((row) => {
        const id = c.rolloutId.at(row);
        const attempt = c.attempt.at(row);
        return { key: attempt === null ? id : `${id}#${attempt}`, file: c.file.at(row) ?? '', line: c.line[row] ?? 0 };
      }),
    });
  }
  return modes.result();
}
