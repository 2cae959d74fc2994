import type { RefObject } from 'react';
import type { ReviewQueueItem } from '../../format';
import { REVIEW_VERDICTS, type Review, type ReviewVerdict } from '../../load';
import { VERDICT_KEYS } from '../shared/useReviewKeys';
import { reasonText } from './queueModel';

const WORD: Record<ReviewVerdict, { text: string; mark: string }> = {
  agree: { text: 'Agree', mark: '✓' },
  disagree: { text: 'Disagree', mark: '✗' },
  unsure: { text: 'Unsure', mark: '?' },
};

interface Props {
  item: ReviewQueueItem;
  position: number;
  of: number;
  /** This reviewer's review of the item, and everyone else's. */
  mine: Review | undefined;
  others: readonly Review[];
  /** Verdicts can be saved (the file's reviews are read and the rollout is loaded). */
  ready: boolean;
  /** Why they cannot be, when not ready. */
  waiting: string;
  saving: boolean;
  note: string;
  noteRef: RefObject<HTMLTextAreaElement | null>;
  onNote(text: string): void;
  onNoteDone(): void;
  onMark(verdict: ReviewVerdict): void;
  onOpen(): void;
  onNext(): void;
  error: string | null;
}

/** The current item: what it is, why it is queued, your verdict (a / d / u), your note (e), and the way to its audit (Enter). */
export function QueueItemPanel(p: Props) {
  const { item } = p;
  return (
    <section className="queue-card queue-current" aria-label="Current item">
      <div className="queue-current__head">
        <h3>
          <span className="faint">
            {p.position + 1} of {p.of}:
          </span>{' '}
          <span className="mono">{item.attempt_id === null ? item.rollout_id : `${item.rollout_id} · ${item.attempt_id}`}</span>
        </h3>
        <button type="button" className="btn" onClick={p.onOpen} title="Open this rollout on its Grader audit tab">
          Open in the Grader audit <kbd>Enter</kbd>
        </button>
      </div>
      <p className="queue-current__facts">
        task <span className="mono">{item.task_id}</span> · grader verdict <strong>{item.verdict ?? 'none'}</strong> ·{' '}
        {reasonText(item.reason)} ·{' '}
        <span className="faint mono" title={`${item.file}:${item.line}`}>
          {item.file}:{item.line}
        </span>
      </p>
      <div className="queue-current__verdicts">
        <fieldset className="queue-verdicts" aria-label="Your verdict on the grader’s decision" disabled={!p.ready}>
          {REVIEW_VERDICTS.map((v) => (
            <button
              key={v}
              type="button"
              className={`queue-verdict queue-verdict--${v}`}
              aria-pressed={p.mine?.verdict === v}
              onClick={() => p.onMark(v)}
            >
              <span aria-hidden="true">{WORD[v].mark}</span> {WORD[v].text} <kbd>{VERDICT_KEYS[v]}</kbd>
            </button>
          ))}
        </fieldset>
        <span className="faint" role="status">
          {!p.ready ? p.waiting : p.mine ? `${p.mine.verdict} · ${p.saving ? 'saving…' : 'saved'}` : 'not reviewed yet'}
        </span>
        <button type="button" className="btn queue-current__next" onClick={p.onNext}>
          Next to review <kbd>n</kbd>
        </button>
      </div>
      <label className="queue-current__note">
        <span>
          Note <kbd>e</kbd>
        </span>
        <textarea
          ref={p.noteRef}
          rows={2}
          value={p.note}
          disabled={!p.ready}
          placeholder={p.mine ? 'Why? Saved when you leave the field (Esc).' : 'Why? Saved with your verdict (a, d or u after Esc).'}
          onChange={(e) => p.onNote(e.target.value)}
          onBlur={p.onNoteDone}
          onKeyDown={(e) => {
            if (e.key === 'Escape' || (e.key === 'Enter' && (e.metaKey || e.ctrlKey))) e.currentTarget.blur();
          }}
        />
      </label>
      {p.others.length > 0 && (
        <p className="queue-current__others">
          <span className="faint">Also reviewed by</span>{' '}
          {p.others.map((r) => (
            <span key={r.reviewer} className="queue-current__other">
              {r.reviewer || 'someone unnamed'}: {r.verdict}
              {r.note ? ` (“${r.note.length > 80 ? `${r.note.slice(0, 80)}…` : r.note}”)` : ''}
            </span>
          ))}
        </p>
      )}
      {p.error && (
        <p className="queue-error" role="alert">
          {p.error}
        </p>
      )}
    </section>
  );
}
