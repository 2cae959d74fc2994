import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { DEFAULT_DRIFT_THRESHOLD, type Finding, formatCount, tokenTrack } from '../../analysis';
import type { Rollout } from '../../format';
import { isQwenTokenizer, qwenTokenizerOptions } from '../../load';
import { selectToken, shadeByDrift, showTokenTarget, useSelectedDecoder, useSelectedRollout, useSelection } from '../../state';
import { rewriteReason } from '../shared/rewriteReason';
import type { ShadeMode } from './chipStyle';
import { findingTarget, tokenFindings } from './findingTargets';
import { RewriteNote } from './RewriteNote';
import { resolveSequence, type SeqValue, sequenceOptions, toSource } from './sequence';
import { TokenDetails } from './TokenDetails';
import { TokenFindings } from './TokenFindings';
import { TokenGrid } from './TokenGrid';
import { TokenLegend } from './TokenLegend';
import { TokenSummary } from './TokenSummary';
import './tokens.css';
import { useTokenCells } from './useTokenCells';

const noText = (): string | null => null;
const NO_IDS: readonly number[] = [];

/**
 * One sequence of a rollout as token chips: a segment (its context and generation) or the trainer's
 * packed sequence. Chips show what carries loss, how surprising each sampled token was, and where
 * the trainer disagrees with the sampler; the selection (`seq=`, `tok=`) lives in the URL.
 */
export function TokenView() {
  const selected = useSelectedRollout();
  if (!selected?.record) return null;
  return <TokenTracks key={selected.key} rolloutKey={selected.key} record={selected.record} findings={selected.summary.findings} />;
}

function TokenTracks({ rolloutKey, record, findings: own }: { rolloutKey: string; record: Rollout; findings: readonly Finding[] }) {
  const decoder = useSelectedDecoder();
  const selection = useSelection();
  const seq = resolveSequence(record, selection.seq);
  const track = useMemo(() => (seq === null ? null : tokenTrack(record, toSource(seq))), [record, seq]);
  const piece = decoder ? decoder.piece : noText;
  const shownFirst = selection.token;
  const cells = useTokenCells(track?.ids ?? NO_IDS, piece, shownFirst);
  // Drift shading is part of what a link shows (`shade=drift`); a sequence without trainer log-probs
  // falls back to probability without forgetting the choice.
  const setDrift = shadeByDrift;
  // Hover belongs to the track it happened on: another sequence or rollout starts without one.
  const [hover, setHover] = useState<{ track: unknown; position: number } | null>(null);
  const hovered = hover !== null && hover.track === track ? hover.position : null;
  const onHover = useCallback((position: number | null) => setHover(position === null ? null : { track, position }), [track]);
  const findings = useMemo(() => tokenFindings(own), [own]);
  const options = useMemo(() => sequenceOptions(record), [record]);
  const threshold = DEFAULT_DRIFT_THRESHOLD;
  // Only watches the load the page started (useDecoder); the record's own token strings are used meanwhile.
  const tokenizer = useQuery({ ...qwenTokenizerOptions(), enabled: false });

  const select = useCallback(
    (position: number | null) => {
      if (seq !== null) selectToken(seq, position);
    },
    [seq],
  );
  // Why this segment's context was rewritten, once its ids can be decoded (null for an append).
  const reason = useMemo(() => (typeof seq === 'number' ? rewriteReason(record, seq, decoder) : null), [record, seq, decoder]);
  const showFinding = useCallback(
    (f: Finding) => {
      // With a decoder, a rewrite is shown at its classified span rather than its first differing id.
      const why = f.code === 'W_CONTEXT_REWRITTEN' && f.segment !== null ? rewriteReason(record, f.segment, decoder) : null;
      const target = why && f.segment !== null ? { seq: f.segment, token: why.after.start, drift: false } : findingTarget(f, record);
      if (!target) return;
      showTokenTarget(target);
    },
    [record, decoder],
  );
  const jump = useCallback(
    (position: number) => {
      if (seq !== null) selectToken(seq, position);
    },
    [seq],
  );
  const switchTo = (value: SeqValue) => {
    selectToken(value, null);
  };

  if (seq === null || !track) {
    return <p className="tokens-empty">This rollout has no segments and no training record: there are no tokens to show.</p>;
  }
  const canDrift = track.trainer !== null;
  const mode: ShadeMode = selection.drift && canDrift ? 'drift' : 'probability';
  const selected = selection.token !== null && selection.token < track.ids.length ? selection.token : null;
  const shown = hovered ?? selected;

  return (
    <div className="tokens">
      <div className="tokens__bar">
        <label className="tokens__field">
          Sequence{' '}
          <select value={String(seq)} onChange={(e) => switchTo(e.target.value === 'training' ? 'training' : Number(e.target.value))}>
            {options.map((o) => (
              <option key={String(o.value)} value={String(o.value)}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <fieldset className="tokens__mode">
          <legend>Shade by</legend>
          <label>
            <input type="radio" name="tok-shade" checked={mode === 'probability'} onChange={() => setDrift(false)} /> Probability
          </label>
          <label
            title={
              canDrift
                ? 'Shade by |training.logprobs − old_logprobs|'
                : record.training?.logprobs
                  ? 'Drift compares training.logprobs: choose the training sequence'
                  : 'Needs training.logprobs, which this rollout does not have'
            }
          >
            <input type="radio" name="tok-shade" checked={mode === 'drift'} disabled={!canDrift} onChange={() => setDrift(true)} /> Drift
          </label>
        </fieldset>
        <span className="tokens__decoding">
          Decoding: {decoder?.note ?? 'no decoder'}
          {/* A count of the whole sequence: none is said while only its start is measured. */}
          {cells.complete && cells.missing > 0 && ` · ${formatCount(cells.missing)} tokens without text are shown as #id`}
          {cells.complete &&
            cells.missing > 0 &&
            decoder?.source === 'record' &&
            isQwenTokenizer(record) &&
            (tokenizer.error
              ? ` (the Qwen3 tokenizer failed to load: ${String(tokenizer.error)})`
              : ' until the Qwen3 tokenizer has loaded…')}
        </span>
      </div>
      <TokenFindings findings={findings} onShow={showFinding} />
      {reason && typeof seq === 'number' && (
        <RewriteNote reason={reason} segment={seq} onShow={() => selectToken(seq, reason.after.start)} />
      )}
      <TokenSummary track={track} onJump={jump} />
      <TokenLegend mode={mode} threshold={threshold} />
      <div className="tokens__body">
        <TokenGrid
          key={`${rolloutKey}\n${seq}`}
          track={track}
          cells={cells}
          piece={piece}
          mode={mode}
          threshold={threshold}
          selected={selected}
          highlight={reason?.after ?? null}
          onSelect={select}
          onHover={onHover}
        />
        <TokenDetails
          track={track}
          training={seq === 'training'}
          position={shown}
          pinned={shown === selected}
          piece={piece}
          threshold={threshold}
        />
      </div>
    </div>
  );
}
