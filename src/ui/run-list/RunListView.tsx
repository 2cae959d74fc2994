import { useCallback, useMemo } from 'react';
import type { LoadResult } from '../../load';
import { findRollout, openRollout, rolloutKeys, selectRollout, useSelectedRolloutKey } from '../../state';
import { visibleColumns } from './columns';
import { RolloutDetail } from './RolloutDetail';
import { RunTable } from './RunTable';
import { SummaryBar } from './SummaryBar';
import './runList.css';

/** Summary, the table of rollouts, and the selected rollout's findings. */
export function RunListView({ result }: { result: LoadResult }) {
  const { rollouts, groups } = result.report;
  const selectedKey = useSelectedRolloutKey();
  const keys = useMemo(() => rolloutKeys(rollouts), [rollouts]);
  const selectedIndex = findRollout(rollouts, keys, selectedKey);
  const selected = rollouts[selectedIndex] ?? null;
  const multiFile = result.files.length > 1;
  const columns = useMemo(() => visibleColumns(multiFile), [multiFile]);
  const groupsById = useMemo(() => new Map(groups.map((g) => [g.group_id, g])), [groups]);
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
      <div className="run-list">
        {rollouts.length === 0 ? (
          <div className="placeholder">
            <h2>No rollouts</h2>
            <p>{result.report.parse_errors.length > 0 ? 'Every line failed to load: see Problems below.' : 'The data has no lines.'}</p>
          </div>
        ) : (
          <RunTable rollouts={rollouts} columns={columns} selectedIndex={selectedIndex} onSelect={onSelect} onOpen={onOpen} />
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
