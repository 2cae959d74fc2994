import { useMemo, useState } from 'react';
import { formatCount, type RolloutSummary } from '../../analysis';
import { type LoadSource, REVIEW_LOG_PATH, REVIEW_VERDICTS, type Review, type ReviewVerdict, reviewKey } from '../../load';
import {
  filterByReview,
  nextByReview,
  type ReviewFilter,
  reviewProgress,
  toRollout,
  useDatasetReviews,
  useReviewActions,
  useReviewer,
  useReviewerActions,
  useReviewSaving,
  useRolloutKeys,
  useRolloutRows,
  useSelectedRollout,
  useSources,
} from '../../state';
import { useReviewKeys } from '../shared/useReviewKeys';
import { ReviewTransfer } from './ReviewTransfer';

const VERDICT_LABEL: Record<ReviewVerdict, { text: string; mark: string; key: string }> = {
  agree: { text: 'Agree', mark: '✓', key: 'a' },
  disagree: { text: 'Disagree', mark: '✗', key: 'd' },
  unsure: { text: 'Unsure', mark: '?', key: 'u' },
};

const SHOWN_DISAGREED = 6;

/** `r-1 · a-1`, as the rollout header writes it. */
function rolloutLabel(r: { rollout_id: string; attempt_id: string | null } | undefined): string | null {
  if (!r) return null;
  return r.attempt_id === null ? r.rollout_id : `${r.rollout_id} · ${r.attempt_id}`;
}

function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The reviewer's judgement of this rollout's grader decision, kept by the file's content digest in the
 * browser, or in the run when `trajscope view DIR` serves it (docs/adr/0026): agree / disagree / unsure
 * (a / d / u), a note, progress over the loaded rollouts, and JSONL export and import.
 */
export function ReviewPanel() {
  const selected = useSelectedRollout();
  return selected ? <RolloutReview rolloutKey={selected.key} index={selected.index} summary={selected.summary} /> : null;
}

function RolloutReview({ rolloutKey, index, summary }: { rolloutKey: string; index: number; summary: RolloutSummary }) {
  const { sources } = useSources();
  const rollouts = useRolloutRows();
  const keys = useRolloutKeys();
  const reviews = useDatasetReviews(true);
  const actions = useReviewActions();
  const reviewer = useReviewer();
  const { setReviewer } = useReviewerActions();
  const [error, setError] = useState<string | null>(null);
  const [draft, setDraft] = useState<{ key: string; note: string } | null>(null);

  const digest = reviews.targets[index]?.digest ?? null;
  const review = reviews.byRolloutKey.get(rolloutKey);
  // Shown at once, kept a moment later: "saved" only once the store has it.
  const saving = useReviewSaving(digest, reviewKey(summary));
  const ready = reviews.status === 'ready' && digest !== null;
  const progress = useMemo(() => reviewProgress(keys, reviews.byRolloutKey), [keys, reviews.byRolloutKey]);
  const disagreed = useMemo(() => filterByReview(keys, reviews.byRolloutKey, 'disagreed'), [keys, reviews.byRolloutKey]);

  const save = (patch: Pick<Review, 'verdict' | 'note'>) => {
    if (!ready || digest === null) return;
    const next: Review = {
      rollout_id: summary.rollout_id,
      attempt_id: summary.attempt_id,
      ...patch,
      reviewer: reviewer.trim(),
      timestamp: new Date().toISOString(),
    };
    setError(null);
    setDraft(null);
    actions.save(digest, next).catch((e: unknown) => setError(`The review could not be saved: ${String(e)}`));
  };
  // The draft belongs to one rollout; moving on (j / k) shows the next rollout's saved note.
  const note = draft?.key === rolloutKey ? draft.note : (review?.note ?? '');
  const mark = (verdict: ReviewVerdict) => save({ verdict, note });
  const saveNote = () => {
    if (review && note !== review.note) save({ verdict: review.verdict, note });
  };
  useReviewKeys(ready, mark);

  const goNext = (filter: ReviewFilter) => {
    const key = nextByReview(keys, index, reviews.byRolloutKey, filter);
    if (key !== null) toRollout(key, 'audit');
  };
  const nextUnreviewed = nextByReview(keys, index, reviews.byRolloutKey, 'unreviewed');
  const nextDisagreed = nextByReview(keys, index, reviews.byRolloutKey, 'disagreed');

  return (
    <section className="review" aria-label="Review">
      <div className="review__row">
        <span className="review__label" id="review-verdict-label">
          Your review of the grader’s decision
        </span>
        <fieldset className="review__verdicts" aria-labelledby="review-verdict-label" disabled={!ready}>
          {REVIEW_VERDICTS.map((v) => (
            <button
              key={v}
              type="button"
              className={`review__verdict review__verdict--${v}`}
              aria-pressed={review?.verdict === v}
              onClick={() => mark(v)}
              title={`Mark ${v} (${VERDICT_LABEL[v].key})`}
            >
              <span aria-hidden="true">{VERDICT_LABEL[v].mark}</span> {VERDICT_LABEL[v].text} <kbd>{VERDICT_LABEL[v].key}</kbd>
            </button>
          ))}
        </fieldset>
        {review && (
          <button
            type="button"
            className="link-button review__remove"
            onClick={() => digest && actions.remove(digest, summary).catch((e: unknown) => setError(String(e)))}
          >
            remove review
          </button>
        )}
        <span className="review__saved faint" role="status">
          {review
            ? `${review.verdict} · ${saving ? 'saving…' : `saved ${when(review.timestamp)}`}${review.reviewer ? ` by ${review.reviewer}` : ''}`
            : 'not reviewed yet'}
        </span>
      </div>
      <div className="review__row">
        <label className="review__note">
          <span className="review__label">Note</span>
          <textarea
            rows={2}
            value={note}
            disabled={!ready}
            placeholder={review ? 'Why? (saved when you leave the field; Esc leaves it)' : 'Why? Mark a, d or u to save it with the note'}
            onChange={(e) => setDraft({ key: rolloutKey, note: e.target.value })}
            onBlur={saveNote}
            onKeyDown={(e) => {
              if (e.key === 'Escape' || (e.key === 'Enter' && (e.metaKey || e.ctrlKey))) e.currentTarget.blur();
            }}
          />
        </label>
        <div className="review__progress">
          <p className="review__count">
            <strong>
              {formatCount(progress.reviewed)} of {formatCount(progress.total)} reviewed
            </strong>
            <span className="faint">
              {' '}
              · {progress.byVerdict.agree} agree · {progress.byVerdict.disagree} disagree · {progress.byVerdict.unsure} unsure
            </span>
          </p>
          <div className="review__nav">
            <button type="button" className="btn" disabled={nextUnreviewed === null} onClick={() => goNext('unreviewed')}>
              Next unreviewed ›
            </button>
            <button type="button" className="btn" disabled={nextDisagreed === null} onClick={() => goNext('disagreed')}>
              Next disagreed ›
            </button>
            <span className="faint review__keys">
              keys: <kbd>a</kbd> <kbd>d</kbd> <kbd>u</kbd> mark · <kbd>j</kbd> <kbd>k</kbd> next / previous
            </span>
          </div>
          {disagreed.length > 0 && (
            <p className="review__disagreed">
              <span className="faint">Disagreed:</span>{' '}
              {disagreed.slice(0, SHOWN_DISAGREED).map((k) => (
                <button
                  key={k}
                  type="button"
                  className="link-button mono"
                  aria-current={k === rolloutKey}
                  onClick={() => toRollout(k, 'audit')}
                >
                  {rolloutLabel(rollouts[keys.indexOf(k)]) ?? k}
                </button>
              ))}
              {disagreed.length > SHOWN_DISAGREED && <span className="faint"> and {disagreed.length - SHOWN_DISAGREED} more</span>}
            </p>
          )}
        </div>
      </div>
      {error && (
        <p className="review__error" role="alert">
          {error}
        </p>
      )}
      <ReviewTransfer sources={sources} rollouts={rollouts} keys={keys} reviews={reviews}>
        <label className="review__reviewer">
          Reviewer
          <input type="text" value={reviewer} placeholder="your name" maxLength={80} onChange={(e) => setReviewer(e.target.value)} />
        </label>
        <ReviewStatus
          status={reviews.status}
          error={reviews.error}
          persistent={reviews.persistent}
          shared={reviews.shared}
          sources={sources}
          digests={reviews.digestOfFile}
        />
      </ReviewTransfer>
    </section>
  );
}

function ReviewStatus({
  status,
  error,
  persistent,
  shared,
  sources,
  digests,
}: {
  status: string;
  error: string | null;
  persistent: boolean;
  shared: boolean;
  sources: readonly LoadSource[];
  digests: ReadonlyMap<string, string>;
}) {
  if (status === 'error') {
    return (
      <p className="review__error" role="alert">
        Reviews are unavailable: {error}
      </p>
    );
  }
  if (status === 'digesting') {
    return (
      <p className="review__info">
        Preparing reviews: reading {sources.map((s) => s.name).join(', ')} again to compute its content digest…
      </p>
    );
  }
  if (status === 'reading') return <p className="review__info">Reading stored reviews…</p>;
  const names = [...digests].map(([name, d]) => `${name} ${d.slice(0, 19)}…`).join(', ');
  return persistent ? (
    <p className="review__info faint" title={[...digests].map(([name, d]) => `${name}: ${d}`).join('\n')}>
      {shared ? `Kept in the run (${REVIEW_LOG_PATH}) for everyone who opens it,` : 'Kept in this browser'} by content digest: {names}
    </p>
  ) : (
    <p className="review__error">This browser refused IndexedDB: reviews last only until this tab closes. Export them before you leave.</p>
  );
}
