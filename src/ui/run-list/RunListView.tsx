import { useCallback, useMemo } from 'react';
import {
  selectRollout,
  toRollout,
  useAdvantages,
  useDatasetCounts,
  useDatasetReviews,
  useGroups,
  useGroupsById,
  useLoadedFiles,
  usePolicies,
  useProblems,
  useRolloutKeys,
  useRolloutRows,
  useRunFilters,
  useRunFiltersActions,
  useRunSort,
  useSelectedIndex,
  useSelectedRolloutKey,
  useSelection,
} from '../../state';
import { useFrozenWhileHidden } from '../shared/keptPage';
import { UnknownStatusNotice } from '../shared/UnknownStatusNotice';
import { useNarrowScreen } from '../shared/useNarrowScreen';
import { visibleColumns } from './columns';
import { findingCodeCounts, groupCodesOf, type RunRowData, visibleRows } from './filterRollouts';
import { RolloutDetail } from './RolloutDetail';
import { RunFilterBar } from './RunFilterBar';
import { RunTable } from './RunTable';
import { SummaryBar } from './SummaryBar';
import './runList.css';

/** Summary, filters, the table of rollouts, and the selected rollout's findings. */
export function RunListView() {
  const rollouts = useRolloutRows();
  const groups = useGroups();
  const groupsById = useGroupsById();
  const keys = useRolloutKeys();
  const policies = usePolicies();
  const advantages = useAdvantages();
  const problems = useProblems();
  const files = useLoadedFiles();
  const { terminations } = useDatasetCounts();
  const selectedKey = useSelectedRolloutKey();
  const { drGrpo, mismatchAbove } = useSelection();
  const storeFilters = useRunFilters();
  // "Mismatch above X" is in the URL (a link can share it); the other filters are browsing state.
  const filters = useMemo(() => ({ ...storeFilters, mismatchAbove }), [storeFilters, mismatchAbove]);
  const hasMismatch = useMemo(() => rollouts.some((r) => r.mismatch !== undefined), [rollouts]);
  const sort = useRunSort();
  const { cycleSort } = useRunFiltersActions();
  const selectedIndex = useSelectedIndex();
  const selected = rollouts[selectedIndex] ?? null;
  const multiFile = files.length > 1;
  const narrow = useNarrowScreen();
  const pane = selectedKey === null ? 'closed' : narrow ? 'open-narrow' : 'open';
  const columns = useMemo(() => visibleColumns(multiFile, drGrpo, pane, hasMismatch), [multiFile, drGrpo, pane, hasMismatch]);

  const groupCodes = useMemo(() => groupCodesOf(groups), [groups]);
  // Reviews are keyed by the file's content digest: computed only once a review filter is chosen.
  const reviews = useDatasetReviews(filters.review !== 'all');
  const reviewed = reviews.status === 'ready' ? reviews.byRolloutKey : null;
  const data: RunRowData = useMemo(
    () => ({ rollouts, policies, advantages, groupCodes, keys, reviews: reviewed }),
    [rollouts, policies, advantages, groupCodes, keys, reviewed],
  );
  // Kept mounted (routes.tsx): while a rollout is open, the rows a load or live follow adds wait until
  // the list is shown again instead of being filtered and sorted for nobody.
  const shown = useFrozenWhileHidden(data);
  const rows = useMemo(() => visibleRows(shown, filters, sort), [shown, filters, sort]);
  const reviewNote =
    filters.review === 'all'
      ? null
      : reviews.status === 'ready'
        ? null
        : reviews.status === 'error'
          ? `reviews could not be read: ${reviews.error}`
          : 'reading reviews…';
  const viewKey = useMemo(() => JSON.stringify([filters, sort]), [filters, sort]);
  const codes = useMemo(() => findingCodeCounts(shown), [shown]);

  const onOpen = useCallback(
    (index: number) => {
      const key = keys[index];
      if (key !== undefined) toRollout(key);
    },
    [keys],
  );
  const onSelect = useCallback((index: number | null) => selectRollout(index === null ? null : (keys[index] ?? null)), [keys]);

  return useFrozenWhileHidden(
    <>
      <SummaryBar />
      <UnknownStatusNotice rollouts={rollouts} />
      {rollouts.length > 0 && (
        <RunFilterBar
          filters={filters}
          terminations={terminations}
          codes={codes}
          shown={rows.length}
          total={rollouts.length}
          drGrpo={drGrpo}
          reviewNote={reviewNote}
          mismatch={hasMismatch}
          shownRows={rows}
        />
      )}
      <div className="run-list">
        {rollouts.length === 0 ? (
          <div className="placeholder">
            <h2>No rollouts</h2>
            <p>
              {files.some((f) => f.unsupported)
                ? 'No file is in a format Trajscope knows: see above, or read it with a field mapping.'
                : problems.length > 0
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
    </>,
  );
}
