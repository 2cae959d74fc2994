import { formatCount, predictedFrom, TokenRole, type TokenTrack } from '../../analysis';
import { formatLogprob } from '../shared/format';
import { chipLabel } from './layout';
import { roleInfo } from './roles';
import { DRIFT_OVER, drift, driftLevel, probability } from './shade';
import { escapeText } from './whitespace';

interface Props {
  track: TokenTrack;
  /** Whether the track is the trainer's packed sequence (else one segment). */
  training: boolean;
  position: number | null;
  /** Whether `position` is the selected token (else it is the one under the pointer). */
  pinned: boolean;
  piece: (id: number) => string | null;
  threshold: number;
}

function logprob(lp: number): string {
  return `${formatLogprob(lp, 4)} (p = ${probability(lp).toPrecision(3)})`;
}

/** Everything about one token, including which logits predicted it: the panel beside the chips. */
export function TokenDetails({ track, training, position, pinned, piece, threshold }: Props) {
  const id = position === null ? undefined : track.ids[position];
  if (position === null || id === undefined) {
    return (
      <aside className="tok-details" aria-label="Token details">
        <p className="tok-details__hint">Hover over a token, or click one to select it (arrow keys move, Esc clears).</p>
      </aside>
    );
  }
  const text = piece(id);
  const role = track.roles[position] ?? TokenRole.Context;
  const info = roleInfo(role);
  const sampled = track.sampled(position);
  const trainer = track.trainer?.[position] ?? null;
  const difference = drift(trainer, sampled);
  const segment = track.segmentOf(position);
  const from = predictedFrom(position);
  const fromId = from === null ? undefined : track.ids[from];
  return (
    <aside className="tok-details" aria-label="Token details">
      <div className="tok-details__state">{pinned ? 'Selected token' : 'Token under the pointer'}</div>
      <h3 className="tok-details__title">
        Position {position} <span className="faint">of {formatCount(track.ids.length)}</span>
      </h3>
      <dl className="tok-details__facts">
        <dt>Text</dt>
        <dd>
          {text === null ? (
            <span className="faint">no text: the id could not be decoded</span>
          ) : (
            <code className="tok-details__text">{escapeText(text) || '(empty)'}</code>
          )}
        </dd>
        <dt>Id</dt>
        <dd className="mono">{id}</dd>
        <dt>Role</dt>
        <dd>
          <span className={`tok tok--${info.name} tok--swatch`} aria-hidden="true">
            ab
          </span>{' '}
          <strong>{info.label}</strong>: {info.meaning}
        </dd>
        <dt>Segment</dt>
        <dd>
          {segment < 0 ? (
            <span className="faint">none (not a generated token)</span>
          ) : training && sampled === null ? (
            <>
              where segment {segment} generated, but the packed token is not the one it sampled: the trainer scores a token the model did
              not produce here
            </>
          ) : (
            `generated in segment ${segment}`
          )}
        </dd>
        <dt>Sampled log-prob</dt>
        <dd className="mono">{sampled === null ? <span className="faint">—</span> : logprob(sampled)}</dd>
        {track.trainer && (
          <>
            <dt>Trainer log-prob</dt>
            <dd className="mono">{trainer === null ? <span className="faint">—</span> : logprob(trainer)}</dd>
            <dt>Drift</dt>
            <dd className={driftLevel(difference, threshold) === DRIFT_OVER ? 'tok-details__over' : undefined}>
              {difference === null ? (
                <span className="faint">nothing to compare</span>
              ) : (
                <>
                  |trainer − sampled| = <span className="mono">{difference.toFixed(4)}</span> nat
                  {difference > threshold ? ` (above the ${threshold} nat threshold: W_LOGPROB_DRIFT)` : ''}
                </>
              )}
            </dd>
          </>
        )}
      </dl>
      <p className="tok-details__shift">
        {from === null || fromId === undefined ? (
          'Predicted by nothing: position 0 has no earlier logits, so the first token is never scored.'
        ) : (
          <>
            Predicted by the logits at position {from} (token ‘{chipLabel(piece(fromId), fromId)}’).
            <span className="tok-details__why">
              {' '}
              The one-position shift: the logits at t−1 predict the token at t, so this token’s log-prob comes from position {from}.
            </span>
          </>
        )}
      </p>
    </aside>
  );
}
