import { type ReactNode, useRef, useState } from 'react';
import type { RolloutSummary } from '../../analysis';
import { plural } from '../../analysis';
import {
  type LoadSource,
  parseReviewsJsonl,
  REVIEW_LOG_PATH,
  type Review,
  type ReviewLineError,
  reviewKey,
  reviewsToJsonl,
} from '../../load';
import { type LoadedReviews, planImport, useReviewActions } from '../../state';
import { download } from '../shared/download';

interface Props {
  sources: readonly LoadSource[];
  rollouts: readonly RolloutSummary[];
  keys: readonly string[];
  reviews: LoadedReviews;
  /** Shown first on the row: where reviews are kept. */
  children?: ReactNode;
}

interface ImportReport {
  file: string;
  added: number;
  replaced: number;
  errors: ReviewLineError[];
}

/** "rollouts.jsonl.gz" -> "rollouts.reviews.jsonl". */
function exportName(sources: readonly LoadSource[]): string {
  const only = sources.length === 1 ? sources[0] : undefined;
  const base = only ? only.name.replace(/\.gz$/i, '').replace(/\.jsonl?$/i, '') : 'trajscope';
  return `${base}.reviews.jsonl`;
}

/** The reviews a clear would delete, per file digest: the loaded rollouts' reviews as this tab shows them. */
function announcedReviews(rollouts: readonly RolloutSummary[], keys: readonly string[], reviews: LoadedReviews): Map<string, Review[]> {
  const out = new Map<string, Review[]>();
  const seen = new Set<string>();
  rollouts.forEach((_, i) => {
    const key = keys[i];
    const digest = reviews.targets[i]?.digest;
    const review = key === undefined ? undefined : reviews.byRolloutKey.get(key);
    if (!review || !digest || seen.has(`${digest}\n${reviewKey(review)}`)) return;
    seen.add(`${digest}\n${reviewKey(review)}`);
    out.set(digest, [...(out.get(digest) ?? []), review]);
  });
  return out;
}

/** The loaded rollouts' reviews in file order, from the store as read just now; a duplicate once. */
function storedInOrder(
  rollouts: readonly RolloutSummary[],
  reviews: LoadedReviews,
  fresh: ReadonlyMap<string, ReadonlyMap<string, Review>>,
): Review[] {
  const seen = new Set<string>();
  const out: Review[] = [];
  rollouts.forEach((r, i) => {
    const digest = reviews.targets[i]?.digest;
    const review = digest ? fresh.get(digest)?.get(reviewKey(r)) : undefined;
    const id = `${digest}\n${reviewKey(r)}`;
    if (review && !seen.has(id)) {
      seen.add(id);
      out.push(review);
    }
  });
  return out;
}

/** Export the reviews as JSONL, import them back (bad lines reported by number), or clear them. */
export function ReviewTransfer({ sources, rollouts, keys, reviews, children }: Props) {
  const actions = useReviewActions();
  const input = useRef<HTMLInputElement>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  // The reviews the confirmation names, per file digest, as they were when it was asked: what Delete deletes.
  const [confirming, setConfirming] = useState<Map<string, Review[]> | null>(null);
  const [kept, setKept] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const ready = reviews.status === 'ready';
  const count = reviews.byRolloutKey.size;

  const onImport = async (file: File) => {
    setFailure(null);
    try {
      const parsed = parseReviewsJsonl(await file.text());
      const plan = planImport(parsed.entries, reviews.targets);
      let added = 0;
      let replaced = 0;
      for (const [digest, list] of plan.byDigest) {
        const r = await actions.importReviews(digest, list);
        added += r.added;
        replaced += r.replaced;
      }
      setReport({ file: file.name, added, replaced, errors: [...parsed.errors, ...plan.unmatched].sort((a, b) => a.line - b.line) });
    } catch (e) {
      setFailure(`Import failed: ${String(e)}`);
    }
  };

  const onClear = async (announced: Map<string, Review[]>) => {
    setConfirming(null);
    setReport(null);
    try {
      let removed = 0;
      let total = 0;
      for (const [digest, list] of announced) {
        total += list.length;
        removed += await actions.removeAnnounced(digest, list);
      }
      setKept(total - removed);
    } catch (e) {
      setFailure(`Clearing failed: ${String(e)}`);
    }
  };

  // Exported as stored now, not as this tab last read them: another tab may have changed them since.
  const onExport = async () => {
    setFailure(null);
    try {
      const digests = [...new Set(reviews.digestOfFile.values())];
      const fresh = new Map(await Promise.all(digests.map(async (d) => [d, await actions.stored(d)] as const)));
      download(exportName(sources), reviewsToJsonl(storedInOrder(rollouts, reviews, fresh)), 'application/x-ndjson');
    } catch (e) {
      setFailure(`Export failed: ${String(e)}`);
    }
  };

  return (
    <div className="review-transfer">
      <div className="review-transfer__where">{children}</div>
      <button type="button" className="btn" disabled={!ready || count === 0} onClick={() => void onExport()}>
        Export reviews (JSONL)
      </button>
      <button type="button" className="btn" disabled={!ready} onClick={() => input.current?.click()}>
        Import reviews…
      </button>
      <input
        ref={input}
        type="file"
        accept=".jsonl,.json,.txt,application/x-ndjson,application/json,text/plain"
        hidden
        aria-label="Reviews file to import"
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) void onImport(file);
        }}
      />
      {confirming ? (
        <fieldset className="review-transfer__confirm">
          <legend className="review-transfer__question">
            Delete{' '}
            {plural(
              [...confirming.values()].reduce((n, l) => n + l.length, 0),
              'review',
            )}{' '}
            of the loaded rollouts from {reviews.shared ? `the run (${REVIEW_LOG_PATH})` : 'this browser'}?
          </legend>
          <button type="button" className="btn btn--danger" onClick={() => void onClear(confirming)}>
            Delete
          </button>
          <button type="button" className="btn" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </fieldset>
      ) : (
        <button
          type="button"
          className="btn"
          disabled={!ready || count === 0}
          onClick={() => {
            setKept(null);
            setConfirming(announcedReviews(rollouts, keys, reviews));
          }}
        >
          Clear reviews…
        </button>
      )}
      {kept !== null && kept > 0 && (
        <p className="review-transfer__kept" role="status">
          {plural(kept, 'review')} changed {reviews.shared ? 'by someone else' : 'in another tab'} since the question and{' '}
          {kept === 1 ? 'was' : 'were'} kept.
        </p>
      )}
      {failure && (
        <p className="review__error" role="alert">
          {failure}
        </p>
      )}
      {report && (
        <div className="review-import" role="status" aria-label="Import result">
          <p>
            Imported {plural(report.added + report.replaced, 'review')} from <span className="mono">{report.file}</span>
            {report.replaced > 0 ? ` (${report.replaced} replaced a stored review)` : ''}.
            {report.errors.length > 0 && ` ${plural(report.errors.length, 'line')} skipped:`}
            <button type="button" className="link-button review-import__close" onClick={() => setReport(null)}>
              dismiss
            </button>
          </p>
          {report.errors.length > 0 && (
            <ul className="review-import__errors">
              {report.errors.map((e) => (
                <li key={`${e.line}:${e.message}`}>
                  <span className="mono">line {e.line}</span>: {e.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
