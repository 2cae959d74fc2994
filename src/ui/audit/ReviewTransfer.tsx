import { type ReactNode, useRef, useState } from 'react';
import type { RolloutSummary } from '../../analysis';
import { plural } from '../../analysis';
import { type LoadSource, parseReviewsJsonl, type Review, type ReviewLineError, reviewKey, reviewsToJsonl } from '../../load';
import { type LoadedReviews, planImport, useReviewActions } from '../../state';

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

/** The loaded rollouts' reviews in file order; a rollout listed twice (a duplicate) once. */
function reviewsInOrder(rollouts: readonly RolloutSummary[], keys: readonly string[], reviews: LoadedReviews): Review[] {
  const seen = new Set<string>();
  const out: Review[] = [];
  rollouts.forEach((r, i) => {
    const key = keys[i];
    const review = key === undefined ? undefined : reviews.byRolloutKey.get(key);
    const id = `${reviews.targets[i]?.digest}\n${reviewKey(r)}`;
    if (review && !seen.has(id)) {
      seen.add(id);
      out.push(review);
    }
  });
  return out;
}

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // The click starts the download synchronously; the URL is not needed after it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Export the reviews as JSONL, import them back (bad lines reported by number), or clear them. */
export function ReviewTransfer({ sources, rollouts, keys, reviews, children }: Props) {
  const actions = useReviewActions();
  const input = useRef<HTMLInputElement>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [confirming, setConfirming] = useState(false);
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

  const onClear = async () => {
    setConfirming(false);
    setReport(null);
    try {
      for (const digest of new Set(reviews.digestOfFile.values())) await actions.clear(digest);
    } catch (e) {
      setFailure(`Clearing failed: ${String(e)}`);
    }
  };

  return (
    <div className="review-transfer">
      <div className="review-transfer__where">{children}</div>
      <button
        type="button"
        className="btn"
        disabled={!ready || count === 0}
        onClick={() => download(exportName(sources), reviewsToJsonl(reviewsInOrder(rollouts, keys, reviews)))}
      >
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
          <legend className="review-transfer__question">Delete {plural(count, 'review')} of the loaded rollouts from this browser?</legend>
          <button type="button" className="btn btn--danger" onClick={() => void onClear()}>
            Delete
          </button>
          <button type="button" className="btn" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </fieldset>
      ) : (
        <button type="button" className="btn" disabled={!ready || count === 0} onClick={() => setConfirming(true)}>
          Clear reviews…
        </button>
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
