import { lazy, Suspense, useEffect } from 'react';
import { plural } from '../analysis';
import { backToList, type RolloutTab, showTab, toAllRollouts, toRollout, useSelectedRollout, useSelection } from '../state';
import { AuditView } from './audit/AuditView';
import { RolesView } from './roles/RolesView';
import { RawView } from './rollout/RawView';
import { RolloutHeader } from './rollout/RolloutHeader';
import { StepsView } from './rollout/StepsView';
import { BuildingNote } from './shared/BuildingNote';
import { TokenView } from './tokens/TokenView';
import './rollout/rollout.css';

// The mismatch panel alone in the rollout page draws charts: recharts loads with it, as with the groups page.
const MismatchView = lazy(() => import('./mismatch/MismatchView').then((m) => ({ default: m.MismatchView })));

const TABS: { id: RolloutTab; label: string }[] = [
  { id: 'steps', label: 'Steps' },
  { id: 'tokens', label: 'Tokens' },
  { id: 'mismatch', label: 'Mismatch' },
  { id: 'audit', label: 'Grader audit' },
  { id: 'roles', label: 'Four roles' },
  { id: 'raw', label: 'Raw JSON' },
];

/**
 * One rollout's inspector: the header with its verdicts, then steps, tokens, the grader audit, the four
 * roles or the raw record. It composes views, so it sits beside App, outside every view's folder.
 */
export function RolloutPage() {
  const { rollout: requested, tab } = useSelection();
  const selected = useSelectedRollout();
  const prevKey = selected?.prevKey;
  const nextKey = selected?.nextKey;

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
      const key = e.key === 'j' ? nextKey : e.key === 'k' ? prevKey : undefined;
      if (key !== undefined) {
        e.preventDefault();
        toRollout(key, tab);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [prevKey, nextKey, tab]);

  if (!selected) {
    return (
      <div className="placeholder">
        <h2>No rollout “{requested}” in the loaded data</h2>
        <p>
          <button type="button" className="link-button" onClick={toAllRollouts}>
            Back to all rollouts
          </button>
        </p>
      </div>
    );
  }

  return (
    <div className="rollout-page">
      <RolloutHeader />
      <div className="rollout-tabs" role="tablist" aria-label="Rollout views">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className="rollout-tabs__tab"
            onClick={() => showTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="rollout-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {selected.record === null && selected.progress !== null && selected.error === null ? (
          <BuildingNote what={`Reading this rollout’s ${plural(selected.summary.steps, 'step')}`} done={selected.progress} />
        ) : selected.record === null ? (
          <div className="placeholder" aria-busy={selected.error === null}>
            {selected.error !== null && <p>The rollout could not be read: {selected.error}</p>}
          </div>
        ) : (
          <>
            {tab === 'steps' && <StepsView />}
            {tab === 'tokens' && <TokenView />}
            {tab === 'mismatch' && (
              <Suspense fallback={<div className="placeholder" aria-busy="true" />}>
                <MismatchView />
              </Suspense>
            )}
            {tab === 'audit' && <AuditView />}
            {tab === 'roles' && <RolesView />}
            {tab === 'raw' && <RawView record={selected.record} />}
          </>
        )}
      </div>
    </div>
  );
}
