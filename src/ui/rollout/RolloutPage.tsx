import { useEffect, useMemo } from 'react';
import type { LoadResult } from '../../load';
import { expandRollout, useDecoder } from '../../load';
import { backToList, findRollout, openRollout, type RolloutTab, rolloutKeys, setParams, useSelection } from '../../state';
import { AuditView } from '../audit/AuditView';
import { RolesView } from '../roles/RolesView';
import { TokenView } from '../tokens/TokenView';
import { RawView } from './RawView';
import { RolloutHeader } from './RolloutHeader';
import type { RolloutContext } from './rolloutContext';
import { StepsView } from './StepsView';
import './rollout.css';

const TABS: { id: RolloutTab; label: string }[] = [
  { id: 'steps', label: 'Steps' },
  { id: 'tokens', label: 'Tokens' },
  { id: 'audit', label: 'Grader audit' },
  { id: 'roles', label: 'Four roles' },
  { id: 'raw', label: 'Raw JSON' },
];

/** One rollout's inspector: the header with its verdicts, then steps, tokens or the raw record. */
export function RolloutPage({ result }: { result: LoadResult }) {
  const selection = useSelection();
  const { rollouts, groups } = result.report;
  const keys = useMemo(() => rolloutKeys(rollouts), [rollouts]);
  const index = findRollout(rollouts, keys, selection.rollout);
  const summary = rollouts[index];
  const compact = result.records[index];
  // Expanded only for the rollout on screen: memory holds the compact form of every other one.
  const record = useMemo(() => (compact ? expandRollout(compact) : null), [compact]);
  const decoder = useDecoder(record);
  const groupsById = useMemo(() => new Map(groups.map((g) => [g.group_id, g])), [groups]);

  // j / k step through rollouts in file order, as in a mail client; Esc goes back to the list (unless a
  // view used it first, e.g. to clear a selected token); all ignored while typing.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select, [contenteditable]')) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'Escape' && !e.defaultPrevented) {
        backToList();
        return;
      }
      const next = e.key === 'j' ? index + 1 : e.key === 'k' ? index - 1 : null;
      const key = next === null ? undefined : keys[next];
      if (key !== undefined) {
        e.preventDefault();
        openRollout(key, { tab: selection.tab });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, keys, selection.tab]);

  if (!summary || !record) {
    return (
      <div className="placeholder">
        <h2>No rollout “{selection.rollout}” in the loaded data</h2>
        <p>
          <button type="button" className="link-button" onClick={() => setParams({ view: null, rollout: null }, { replace: false })}>
            Back to all rollouts
          </button>
        </p>
      </div>
    );
  }

  const ctx: RolloutContext = {
    record,
    summary,
    index,
    key: keys[index] ?? summary.rollout_id,
    group: groupsById.get(summary.group_id),
    advantage: (selection.drGrpo ? result.advantages.drGrpo : result.advantages.grpo)[index] ?? null,
    drGrpo: selection.drGrpo,
    decoder,
  };

  return (
    <div className="rollout-page">
      <RolloutHeader ctx={ctx} total={rollouts.length} prevKey={keys[index - 1]} nextKey={keys[index + 1]} />
      <div className="rollout-tabs" role="tablist" aria-label="Rollout views">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={selection.tab === t.id}
            aria-controls={`panel-${t.id}`}
            className="rollout-tabs__tab"
            onClick={() => setParams({ tab: t.id === 'steps' ? null : t.id })}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="rollout-panel" role="tabpanel" id={`panel-${selection.tab}`} aria-labelledby={`tab-${selection.tab}`}>
        {selection.tab === 'steps' && <StepsView ctx={ctx} />}
        {selection.tab === 'tokens' && <TokenView ctx={ctx} />}
        {selection.tab === 'audit' && <AuditView ctx={ctx} />}
        {selection.tab === 'roles' && <RolesView ctx={ctx} />}
        {selection.tab === 'raw' && <RawView record={record} />}
      </div>
    </div>
  );
}
