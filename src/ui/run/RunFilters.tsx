import { useMemo } from 'react';
import { type TrendFilter, terminationInfo } from '../../analysis';
import { formatCount } from '../../format';
import type { RunColumns } from '../../load';

/** Tasks offered in the list; a run with more is filtered by typing the task id. */
const TASKS_LISTED = 2000;
const NO_VALUES: readonly (string | null)[] = [];

/** Which rollouts the charts count: one task or all, and which terminations (disabled while no rows are read). */
export function RunFilters({
  columns,
  filter,
  onChange,
  matched,
  total,
}: {
  columns: RunColumns | null;
  filter: TrendFilter;
  onChange: (f: TrendFilter) => void;
  matched: number;
  total: number;
}) {
  const tasks = columns?.task.values ?? NO_VALUES;
  const taskCount = tasks.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the dictionary only grows; its size names its content.
  const sortedTasks = useMemo(
    () =>
      tasks
        .map((t, code) => ({ t: t ?? '', code }))
        .sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : 0))
        .slice(0, TASKS_LISTED),
    [tasks, taskCount],
  );
  const task = filter.tasks === null ? '' : String([...filter.tasks][0] ?? '');
  const terms = columns?.termination.values ?? NO_VALUES;
  const toggle = (code: number) => {
    const all = new Set(terms.map((_, k) => k));
    const now = filter.terminations ?? all;
    const next = new Set(now);
    if (next.has(code)) next.delete(code);
    else next.add(code);
    onChange({ ...filter, terminations: next.size === all.size ? null : next });
  };
  return (
    <section className="run-filters" aria-label="Filter the charts">
      <label>
        Task{' '}
        <select
          disabled={columns === null}
          value={task}
          onChange={(e) => onChange({ ...filter, tasks: e.target.value === '' ? null : new Set([Number(e.target.value)]) })}
        >
          <option value="">{columns === null ? 'all tasks' : `all ${formatCount(taskCount)} tasks`}</option>
          {sortedTasks.map(({ t, code }) => (
            <option key={code} value={code}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="run-filters__terms">
        <legend>Termination</legend>
        {terms.map((t, k) => (
          <label key={t ?? k}>
            <input type="checkbox" checked={filter.terminations === null || filter.terminations.has(k)} onChange={() => toggle(k)} />{' '}
            {terminationInfo(t ?? '').label}
          </label>
        ))}
      </fieldset>
      {matched !== total && (
        <span className="faint">
          {formatCount(matched)} of {formatCount(total)} rollouts counted
        </span>
      )}
    </section>
  );
}
