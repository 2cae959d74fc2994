import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import {
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  type Cohort,
  type CohortRow,
  compareCheckpoints,
  formatCount,
  PASS_REWARD,
  parseCohort,
  printCohort,
  type TaskComparison,
  type TaskVerdict,
} from '../../analysis';
import { toCheckpoints, toCompare, usePolicies, useRolloutKeys, useRolloutRows, useSelection, useTrainingSteps } from '../../state';
import { CohortPicker } from './CohortPicker';
import { type CohortChoices, cohortChoices, defaultCohorts, mixChange } from './cohortChoices';
import '../shared/shared.css';
import './checkpoints.css';

const ROW_HEIGHT = 30;
type Filter = 'all' | 'improved' | 'regressed' | 'unchanged' | 'one-side';
const FILTERS: ReadonlyArray<[Filter, string]> = [
  ['all', 'All'],
  ['improved', 'Improved'],
  ['regressed', 'Regressed'],
  ['unchanged', 'Unchanged'],
  ['one-side', 'One side only'],
];
const kept = (f: Filter, v: TaskVerdict) => f === 'all' || f === v || (f === 'one-side' && (v === 'only-a' || v === 'only-b'));

const signed = (x: number, digits = 3) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(digits)}`;
const num = (x: number | null | undefined) => (x == null ? '—' : x.toFixed(3));
const pct = (x: number | null | undefined) => (x == null ? '—' : `${Math.round(x * 100)}%`);

/** Two checkpoints (policy versions, training-step ranges or files) compared task by task. */
export function CheckpointsView() {
  const rows = useRolloutRows();
  const keys = useRolloutKeys();
  const policies = usePolicies();
  const steps = useTrainingSteps();
  const { cohorts } = useSelection();
  const cohortRows = useMemo(
    (): CohortRow[] =>
      rows.map((r, i) => ({
        key: keys[i] ?? '',
        task_id: r.task_id,
        group_id: r.group_id,
        reward: r.reward,
        termination: r.termination,
        policy: policies[i] ?? null,
        step: steps[i] ?? null,
        file: r.file,
      })),
    [rows, keys, policies, steps],
  );
  const choices = useMemo(() => cohortChoices(cohortRows), [cohortRows]);
  const fallback = useMemo(() => defaultCohorts(choices), [choices]);
  const a = parseCohort(cohorts.a) ?? fallback?.[0] ?? null;
  const b = parseCohort(cohorts.b) ?? fallback?.[1] ?? null;
  return (
    <section className="tool-page checkpoints" aria-label="Compare checkpoints">
      <div className="checkpoints__pickers">
        <CohortPicker label="A" cohort={a} choices={choices} onChange={(c) => toCheckpoints({ a: printCohort(c) })} />
        <CohortPicker label="B" cohort={b} choices={choices} onChange={(c) => toCheckpoints({ b: printCohort(c) })} />
      </div>
      {a && b ? (
        <Comparison rows={cohortRows} a={a} b={b} choices={choices} />
      ) : (
        <p className="placeholder">Choose two cohorts to compare.</p>
      )}
    </section>
  );
}

function Comparison({ rows, a, b }: { rows: CohortRow[]; a: Cohort; b: Cohort; choices: CohortChoices }) {
  const { tasks, summary: s } = useMemo(() => compareCheckpoints(rows, a, b), [rows, a, b]);
  const [filter, setFilter] = useState<Filter>('all');
  const shown = useMemo(() => tasks.filter((t) => kept(filter, t.verdict)), [tasks, filter]);
  return (
    <>
      <p className="checkpoints__summary" role="status">
        <b>{formatCount(s.paired)} tasks on both sides</b> · <span className="cp-up">{s.improved} improved</span> ·{' '}
        <span className="cp-down">{s.regressed} regressed</span> · {s.unchanged} unchanged
        {s.meanDelta !== null && (
          <>
            {' '}
            · mean reward change <b>{signed(s.meanDelta)}</b>
            {s.interval && (
              <span title={`95% percentile bootstrap over tasks: ${formatCount(BOOTSTRAP_RESAMPLES)} resamples, seed ${BOOTSTRAP_SEED}`}>
                {' '}
                (95% CI {signed(s.interval[0])} to {signed(s.interval[1])})
              </span>
            )}
          </>
        )}
        <span className="faint"> · a task's reward is the mean of its GRPO group means</span>
        {(s.onlyA > 0 || s.onlyB > 0) && (
          <span className="faint">
            {' '}
            · {s.onlyA} only in A, {s.onlyB} only in B
          </span>
        )}
      </p>
      <fieldset className="checkpoints__filters" aria-label="Show tasks">
        {FILTERS.map(([f, label]) => (
          <button key={f} type="button" aria-pressed={filter === f} onClick={() => setFilter(f)}>
            {label} ({tasks.filter((t) => kept(f, t.verdict)).length})
          </button>
        ))}
      </fieldset>
      <TaskTable tasks={shown} />
    </>
  );
}

function TaskTable({ tasks }: { tasks: TaskComparison[] }) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tasks.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  return (
    <div className="cp-table" ref={scroller}>
      <div className="cp-row cp-row--head" aria-hidden="true">
        <span>task</span>
        <span title="The mean of the task's GRPO group means on side A (each group weighs once), over rollouts with a reward; (n) rollouts">
          reward A
        </span>
        <span title="The mean of the task's GRPO group means on side B (each group weighs once), over rollouts with a reward; (n) rollouts">
          reward B
        </span>
        <span>change</span>
        <span title={`The share of rollouts with full credit (reward ≥ ${PASS_REWARD})`}>pass A → B</span>
        <span>termination mix</span>
        <span />
      </div>
      <ul className="cp-list" aria-label="Tasks" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const t = tasks[item.index];
          if (!t) return null;
          const pair = t.a?.representative && t.b?.representative ? [t.a.representative, t.b.representative] : null;
          return (
            <li
              key={t.task_id}
              className={`cp-row cp-row--${t.verdict}`}
              style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
            >
              <span className="cp-task" title={t.task_id}>
                {t.task_id}
              </span>
              <span>
                {num(t.a?.mean)} <span className="faint">({t.a?.rollouts ?? 0})</span>
              </span>
              <span>
                {num(t.b?.mean)} <span className="faint">({t.b?.rollouts ?? 0})</span>
              </span>
              <span className="cp-delta">{t.delta === null ? (t.verdict === 'only-a' ? 'only in A' : 'only in B') : signed(t.delta)}</span>
              <span>
                {pct(t.a?.passRate)} → {pct(t.b?.passRate)}
              </span>
              <span className="cp-mix" title={mixChange(t.a?.mix, t.b?.mix)}>
                {mixChange(t.a?.mix, t.b?.mix) || <span className="faint">same</span>}
              </span>
              <span>
                {pair && (
                  <button
                    type="button"
                    className="link-button"
                    title="A rollout near each side’s mean, side by side"
                    onClick={() => toCompare(pair[0] ?? '', pair[1] ?? '')}
                  >
                    Open pair
                  </button>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
