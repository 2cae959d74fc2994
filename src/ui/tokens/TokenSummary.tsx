import { memo } from 'react';
import { formatCount, TokenRole, type TokenTrack } from '../../analysis';
import { formatLogprob } from '../shared/format';
import { firstWithRole, tokenStats } from './tokenStats';

/**
 * Counts by role and the log-prob of what is trained: one line above the chips; and, when context comes
 * first (a long prompt: hundreds of tokens before anything is trained), a jump to the first trained token.
 */
export const TokenSummary = memo(function TokenSummary({ track, onJump }: { track: TokenTrack; onJump: (position: number) => void }) {
  const s = tokenStats(track);
  const firstTrained = firstWithRole(track, TokenRole.Trained);
  const mean = s.trainedWithLogprob > 0 ? s.trainedLogprobSum / s.trainedWithLogprob : null;
  return (
    <section className="tok-summary" aria-label="Token summary">
      <strong>{formatCount(s.total)} tokens</strong>
      <span>
        <span className="tok-summary__n">{formatCount(s.trained)}</span> trained
        {firstTrained !== null && firstTrained > 0 && (
          <>
            {' '}
            <button type="button" className="link-button" onClick={() => onJump(firstTrained)}>
              first at position {formatCount(firstTrained)} ↓
            </button>
          </>
        )}
      </span>
      <span>
        <span className="tok-summary__n">{formatCount(s.masked)}</span> masked
      </span>
      <span>
        <span className="tok-summary__n">{formatCount(s.context)}</span> context
      </span>
      {s.after > 0 && (
        <span>
          <span className="tok-summary__n">{formatCount(s.after)}</span> after / padding
        </span>
      )}
      {s.wronglyTrained > 0 && (
        <span className="tok-summary__wrong">
          <span className="tok-summary__n">{formatCount(s.wronglyTrained)}</span> wrongly trained
        </span>
      )}
      <span>
        log-prob of trained tokens:{' '}
        {mean === null ? (
          <span className="faint">none sampled</span>
        ) : (
          <>
            sum <span className="mono">{formatLogprob(s.trainedLogprobSum, 3)}</span>, mean{' '}
            <span className="mono">{formatLogprob(mean, 4)}</span>
            {s.trainedWithLogprob < s.trained && (
              <span className="faint"> (over {formatCount(s.trainedWithLogprob)} with a sampled log-prob)</span>
            )}
          </>
        )}
      </span>
    </section>
  );
});
