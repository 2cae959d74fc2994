import { useEffect, useRef } from 'react';
import type { ReviewVerdict } from '../../load';

/** The key of each verdict: the review panel and the queue page mark with them, and show them from here. */
export const VERDICT_KEYS: Readonly<Record<ReviewVerdict, string>> = { agree: 'a', disagree: 'd', unsure: 'u' };

const KEY_VERDICT: Record<string, ReviewVerdict> = Object.fromEntries(
  Object.entries(VERDICT_KEYS).map(([verdict, key]) => [key, verdict as ReviewVerdict]),
);

/**
 * a / d / u mark the rollout under review agree / disagree / unsure, beside the page's j / k; ignored
 * while typing (the note, the reviewer name) and with a modifier held, so browser shortcuts keep working.
 * Used by the audit tab's review panel and the review queue page (one place for the keys).
 */
export function useReviewKeys(enabled: boolean, mark: (verdict: ReviewVerdict) => void): void {
  const latest = useRef(mark);
  latest.current = mark;
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select, [contenteditable]')) return;
      if (e.metaKey || e.ctrlKey || e.altKey || e.repeat) return;
      const verdict = KEY_VERDICT[e.key];
      if (verdict) {
        e.preventDefault();
        latest.current(verdict);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
