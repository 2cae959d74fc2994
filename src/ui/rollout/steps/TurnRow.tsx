import { memo, useMemo } from 'react';
import type { Rollout } from '../../../format';
import type { Decoder } from '../../../load';
import { rewriteReason } from '../../shared/rewriteReason';
import { ActionCell } from './ActionCell';
import { ContextCell } from './ContextCell';
import { cachedContextChange } from './contextCache';
import { ObservationCell } from './ObservationCell';
import { RowMarkers } from './RowMarkers';
import type { TurnItem } from './stepsModel';
import type { Expanded } from './useExpanded';

interface Props {
  turn: TurnItem;
  record: Rollout;
  decoder: Decoder | null;
  /** The tokenizer that decodes contexts is still loading. */
  pending: boolean;
  selected: boolean;
  expanded: Expanded;
  onSelect: (step: number) => void;
  onGoToStep: (step: number) => void;
}

/** One turn: the step number, what is notable about it, then action, observation and context side by side. */
export const TurnRow = memo(function TurnRow({ turn, record, decoder, pending, selected, expanded, onSelect, onGoToStep }: Props) {
  const step = turn.step !== null ? record.steps?.[turn.step - 1] : undefined;
  const segment = turn.segment !== null ? record.segments[turn.segment] : undefined;
  const change = useMemo(() => (turn.segment !== null ? cachedContextChange(record, turn.segment) : null), [record, turn.segment]);
  const reason = useMemo(
    () => (change?.rewritten && turn.segment !== null && !pending ? rewriteReason(record, turn.segment, decoder) : null),
    [change, record, turn.segment, decoder, pending],
  );
  const severity = turn.findings.some((f) => f.severity === 'error')
    ? ' srow--error'
    : turn.regressions.length > 0 || change?.rewritten
      ? ' srow--warning'
      : '';
  return (
    <div className={`srow${selected ? ' srow--selected' : ''}${severity}`}>
      <div className="srow__gutter">
        {turn.step !== null ? (
          <button
            type="button"
            className="srow__num"
            aria-label={`Select step ${turn.step}`}
            aria-pressed={selected}
            onClick={() => turn.step !== null && onSelect(turn.step)}
          >
            {turn.step}
          </button>
        ) : (
          <span className="srow__num srow__num--none" title="No step: the harness executed nothing for this generation">
            –
          </span>
        )}
        {turn.segment !== null && (
          <span className="srow__seg" title="Segment index (0-based, as findings name it)">
            seg {turn.segment}
          </span>
        )}
      </div>
      <div className="srow__main">
        <RowMarkers turn={turn} change={change} reason={reason} onGoToStep={onGoToStep} />
        <div className="srow__cells">
          <ActionCell step={step} segment={segment} segmentIndex={turn.segment} decoder={decoder} expanded={expanded} />
          <ObservationCell step={step} segment={segment} rolloutStart={record.started_at} />
          <ContextCell record={record} segment={turn.segment} change={change} decoder={decoder} pending={pending} expanded={expanded} />
        </div>
      </div>
    </div>
  );
});
