import { type ContextChange, plural, type RewriteClass } from '../../../analysis';
import { showTokenTarget } from '../../../state';
import { REWRITE_WORDS, spanWords } from '../../shared/rewriteReason';
import { FindingBadge } from './FindingBadge';
import type { TurnItem } from './stepsModel';

interface Props {
  turn: TurnItem;
  change: ContextChange | null;
  /** Why the context was rewritten, when its ids can be decoded. */
  reason: RewriteClass | null;
  onGoToStep: (step: number) => void;
}

/** What is notable about a row: regressions, a rewritten context, findings. Nothing when there is none. */
export function RowMarkers({ turn, change, reason, onGoToStep }: Props) {
  const rewritten = change?.rewritten === true;
  if (turn.regressions.length === 0 && turn.revertedBy.length === 0 && turn.findings.length === 0 && !rewritten) return null;
  return (
    <div className="srow__marks">
      {rewritten && change && (
        <span
          className="st-mark st-mark--rewritten"
          title="The context does not extend the previous one: earlier context was dropped or changed"
        >
          context rewritten: {plural(change.dropped, 'token')} dropped, {plural(change.added, 'token')} added
        </span>
      )}
      {rewritten && reason && turn.segment !== null && (
        <span className="st-mark st-mark--rewritten st-mark--reason" title={REWRITE_WORDS[reason.kind].meaning}>
          why: <strong>{REWRITE_WORDS[reason.kind].label}</strong>, {spanWords(reason.before)} of the earlier sequence, now{' '}
          {spanWords(reason.after)}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => turn.segment !== null && showTokenTarget({ seq: turn.segment, token: reason.after.start, drift: false })}
          >
            show in tokens
          </button>
        </span>
      )}
      {turn.regressions.map((r) =>
        r.kind === 'revert' ? (
          <span key={`revert-${r.of_step}`} className="st-mark st-mark--regression">
            regression:{' '}
            <button type="button" className="link-button" onClick={() => onGoToStep(r.of_step)}>
              reverts step {r.of_step}
            </button>
          </span>
        ) : r.kind === 'test' ? (
          <span
            key="test"
            className="st-mark st-mark--regression"
            title="Tests that passed at the previous test run fail or run over budget at the next one"
          >
            regression: breaks {r.tests.join(', ')}
          </span>
        ) : (
          <span key="flaky" className="st-mark st-mark--flaky" title="Tests broke between two test runs with no edit between them">
            flaky: {r.tests.join(', ')} broke with no edit since the last run
          </span>
        ),
      )}
      {turn.revertedBy.map((s) => (
        <span key={`by-${s}`} className="st-mark st-mark--quiet">
          undone by{' '}
          <button type="button" className="link-button" onClick={() => onGoToStep(s)}>
            step {s}
          </button>
        </span>
      ))}
      {turn.findings.map((f, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: findings have no id; their order is fixed per record
        <FindingBadge key={i} finding={f} />
      ))}
    </div>
  );
}
