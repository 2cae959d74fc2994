import { useEffect, useRef } from 'react';
import type { ReviewVerdict } from '../../load';

const KEY_VERDICT: Record<string, ReviewVerdict> = { a: 'agree', d: 'disagree', u: 'unsure' };

/**
 * a / d / u mark the open rollout agree / disagree / unsure, beside the page's j / k; ignored while typing
 * (the note, the reviewer name) and with a modifier held, so browser shortcuts keep working.
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
