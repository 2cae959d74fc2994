import { useMemo, useState } from 'react';
import {
  alignRolloutsPass,
  firstDivergentGeneration,
  formatCount,
  MAX_LARGE_EDITS,
  plural,
  type RolloutSummary,
  rowCounts,
} from '../../analysis';
import type { Rollout } from '../../format';
import { isHugeRecord } from '../../load';
import { backToList, toCompare, toRollout, useRolloutKeys, useRolloutRecord, useRolloutSummary, useSelection } from '../../state';
import { BuildingNote } from '../shared/BuildingNote';
import { formatReward } from '../shared/format';
import { TerminationBadge } from '../shared/TerminationBadge';
import { usePass } from '../shared/usePass';
import { AlignedSteps } from './AlignedSteps';
import { GenerationCard } from './GenerationCard';
import { PairDetail } from './PairDetail';
import '../shared/shared.css';
import './compare.css';

/** Two rollouts side by side: facts on top, the first divergent generation, the aligned steps, a pair's diff. */
export function CompareView() {
  const { compare } = useSelection();
  const keys = useRolloutKeys();
  const a = compare?.a ?? '';
  const b = compare?.b ?? '';
  const ra = useRolloutRecord(keys.includes(a) ? a : undefined);
  const rb = useRolloutRecord(keys.includes(b) ? b : undefined);
  const sa = useRolloutSummary(keys.indexOf(a), ra.record);
  const sb = useRolloutSummary(keys.indexOf(b), rb.record);
  if (!sa || !sb) {
    return (
      <div className="placeholder">
        <h2>Nothing to compare</h2>
        <p>The data has no rollout {!sa ? a : b}.</p>
        <button type="button" onClick={backToList}>
          All rollouts
        </button>
      </div>
    );
  }
  if (!ra.record || !rb.record) return <div className="placeholder">{ra.error ?? rb.error ?? 'Reading the two rollouts…'}</div>;
  return <Pair keyA={a} keyB={b} summaryA={sa} summaryB={sb} recordA={ra.record} recordB={rb.record} />;
}

interface PairProps {
  keyA: string;
  keyB: string;
  summaryA: RolloutSummary;
  summaryB: RolloutSummary;
  recordA: Rollout;
  recordB: Rollout;
}

function Pair({ keyA, keyB, summaryA, summaryB, recordA, recordB }: PairProps) {
  // A huge rollout's calls are aligned in slices, a progress note meanwhile (its steps are parsed as read).
  const { value: alignment, done } = usePass(() => alignRolloutsPass(recordA, recordB), isHugeRecord(recordA) || isHugeRecord(recordB), [
    recordA,
    recordB,
  ]);
  const divergence = useMemo(() => firstDivergentGeneration(recordA, recordB), [recordA, recordB]);
  const [picked, setPicked] = useState<number | null>(null);
  if (!alignment) {
    const what = `Aligning ${plural(recordA.steps?.length ?? 0, 'step')} with ${plural(recordB.steps?.length ?? 0, 'step')}`;
    return <BuildingNote what={what} done={done} />;
  }
  const selected = picked ?? Math.max(0, alignment.firstDivergence);
  const row = alignment.rows[selected];
  const rowsText = formatCount(alignment.rows.length);
  return (
    <section className="tool-page compare" aria-label="Compare two rollouts">
      <div className="compare__sides">
        <SideCard label="A" rolloutKey={keyA} summary={summaryA} record={recordA} />
        <button type="button" className="compare__swap" title="Swap A and B" onClick={() => toCompare(keyB, keyA)}>
          ⇄
        </button>
        <SideCard label="B" rolloutKey={keyB} summary={summaryB} record={recordB} />
      </div>
      <p className="compare__verdict" role="status">
        {alignment.firstDivergence === -1
          ? `The same ${rowsText} tool calls in the same order.`
          : alignment.gaveUp
            ? `First divergence at row ${formatCount(alignment.firstDivergence + 1)} of ${rowsText}; past it the two differ by more than ${MAX_LARGE_EDITS} calls, too many to align: A's calls up to the shared end are listed, then B's.`
            : `First divergence at row ${formatCount(alignment.firstDivergence + 1)} of ${rowsText}; ${formatCount(alignment.same)} calls shared, ${formatCount(alignment.cost)} edits (a changed argument or a call on one side only costs 1).`}
      </p>
      <GenerationCard divergence={divergence} keyA={keyA} keyB={keyB} recordA={recordA} recordB={recordB} />
      <div className="compare__body">
        <AlignedSteps alignment={alignment} a={recordA} b={recordB} selected={selected} onSelect={setPicked} />
        {row && <PairDetail row={row} a={recordA} b={recordB} />}
      </div>
    </section>
  );
}

function SideCard({ label, rolloutKey, summary, record }: { label: string; rolloutKey: string; summary: RolloutSummary; record: Rollout }) {
  return (
    <section className="compare-side" aria-label={`Rollout ${label}`}>
      <div className="compare-side__title">
        <span className="compare-side__label">{label}</span>
        <button type="button" className="compare-side__key" onClick={() => toRollout(rolloutKey)} title="Open in the inspector">
          {rolloutKey}
        </button>
      </div>
      <dl className="compare-side__facts">
        <dt>reward</dt>
        <dd>{summary.reward === null ? 'none' : formatReward(summary.reward)}</dd>
        <dt>termination</dt>
        <dd>
          <TerminationBadge termination={summary.termination} />
        </dd>
        <dt>grader</dt>
        <dd>{record.grading?.verdict ?? 'no verdict'}</dd>
        <dt>regressions</dt>
        <dd>{rowCounts(summary).regressions}</dd>
        <dt>steps</dt>
        <dd>{formatCount(summary.steps)}</dd>
        <dt>task</dt>
        <dd className="compare-side__mono">{summary.task_id}</dd>
      </dl>
    </section>
  );
}
