import { useCallback, useMemo } from 'react';
import type { LoadResult } from '../../load';
import {
  filterByReview,
  findRollout,
  openRollout,
  rolloutKeys,
  selectRollout,
  useLoadedReviews,
  useRunFilters,
  useRunFiltersActions,
  useRunSort,
  useSelectedRolloutKey,
  useSelection,
  useSources,
} from '../../state';
import { UnknownStatusNotice } from '../shared/UnknownStatusNotice';
import { useNarrowScreen } from '../shared/useNarrowScreen';
import { visibleColumns } from './columns';
import { findingCodeCounts, groupCodesOf, type RunRowData, visibleRows } from './filterRollouts';
import { RolloutDetail } from './RolloutDetail';
import { RunFilterBar } from './RunFilterBar';
import { RunTable } from './RunTable';
import { SummaryBar } from './SummaryBar';
import { terminationCounts } from './terminationCounts';
import './runList.css';

/** Summary, filters, the table of rollouts, and the selected rollout's findings. */
export function RunListView({ result }: { result: LoadResult }) {
  const { rollouts, groups } = result.report;
  const selectedKey = useSelectedRolloutKey();
  const { drGrpo } = useSelection();
  const filters = useRunFilters();
  const sort = useRunSort();
  const { cycleSort } = useRunFiltersActions();
  const keys = useMemo(() => rolloutKeys(rollouts), [rollouts]);
  const selectedIndex = findRollout(rollouts, keys, selectedKey);
  const selected = rollouts[selectedIndex] ?? null;
  const multiFile = result.files.length > 1;
  const narrow = useNarrowScreen();
  const pane = selectedKey === null ? 'closed' : narrow ? 'open-narrow' : 'open';
  const columns = useMemo(() => visibleColumns(multiFile, drGrpo, pane), [multiFile, drGrpo, pane]);
  const groupsById = useMemo(() => new Map(groups.map((g) => [g.group_id, g])), [groups]);

  const policies = useMemo(() => result.records.map((r) => r.policy), [result.records]);
  const advantages = drGrpo ? result.advantages.drGrpo : result.advantages.grpo;
  const groupCodes = useMemo(() => groupCodesOf(groups), [groups]);
  const data: RunRowData = useMemo(() => ({ rollouts, policies, advantages, groupCodes }), [rollouts, policies, advantages, groupCodes]);
  // Reviews are keyed by the file's content digest: computed only once a review filter is chosen.
  const { sources } = useSources();
  const reviews = useLoadedReviews(sources, rollouts, keys, filters.review !== 'all');
  const rows = useMemo(() => {
    const base = visibleRows(data, filters, sort);
    if (filters.review === 'all' || reviews.status !== 'ready') return base;
    const kept = new Set(
      filterByReview(
        base.map((i) => keys[i] ?? ''),
        reviews.byRolloutKey,
        filters.review,
      ),
    );
    return base.filter((i) => kept.has(keys[i] ?? ''));
  }, [data, filters, sort, keys, reviews.status, reviews.byRolloutKey]);
  const reviewNote =
    filters.review === 'all'
      ? null
      : reviews.status === 'ready'
        ? null
        : reviews.status === 'error'
          ? `reviews could not be read: ${reviews.error}`
          : 'reading reviews…';
  const viewKey = useMemo(() => JSON.stringify([filters, sort]), [filters, sort]);
  const codes = useMemo(() => findingCodeCounts(data), [data]);
  const { counts } = useMemo(() => terminationCounts(rollouts), [rollouts]);

  const onOpen = useCallback(
    (index: number) => {
      const key = keys[index];
      if (key !== undefined) openRollout(key);
    },
    [keys],
  );
  const onSelect = useCallback((index: number | null) => selectRollout(index === null ? null : (keys[index] ?? null)), [keys]);

  return (
    <>
      <SummaryBar result={result} />
      <UnknownStatusNotice rollouts={rollouts} />
      {rollouts.length > 0 && (
        <RunFilterBar
          filters={filters}
          terminations={counts}
          codes={codes}
          shown={rows.length}
          total={rollouts.length}
          drGrpo={drGrpo}
          reviewNote={reviewNote}
        />
      )}
      <div className="run-list">
        {rollouts.length === 0 ? (
          <div className="placeholder">
            <h2>No rollouts</h2>
            <p>
              {result.files.some((f) => f.unsupported)
                ? 'No file is in a format Trajscope knows: see above, or read it with a field mapping.'
                : result.report.parse_errors.length > 0
                  ? 'Every line failed to load: see Problems below.'
                  : 'The data has no lines.'}
            </p>
          </div>
        ) : (
          <RunTable
            rollouts={rollouts}
            policies={policies}
            advantages={advantages}
            rows={rows}
            columns={columns}
            selectedIndex={selectedIndex}
            selectedKey={selectedKey}
            viewKey={viewKey}
            sort={sort}
            onSort={cycleSort}
            onSelect={onSelect}
            onOpen={onOpen}
          />
        )}
        {selectedKey !== null && (
          <RolloutDetail
            rollout={selected}
            rolloutKey={selectedIndex >= 0 ? (keys[selectedIndex] ?? null) : null}
            requested={selectedKey}
            group={selected ? groupsById.get(selected.group_id) : undefined}
            multiFile={multiFile}
            onClose={() => selectRollout(null)}
          />
        )}
      </div>
    </>
  );
}
