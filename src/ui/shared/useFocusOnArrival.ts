import { type RefObject, useEffect } from 'react';

/**
 * Focuses a view's keyboard target when the view appears and nothing else holds focus (the element that
 * had it, a row of the list just left, is gone): Enter in the run list, then ↑/↓ in the steps, then Esc
 * back and the arrows work again, without a click. A control the reader focused (a tab) keeps it.
 */
export function useFocusOnArrival(target: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    target.current?.focus({ preventScroll: true });
  }, [target]);
}
