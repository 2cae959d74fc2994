import { type RefObject, useContext, useEffect } from 'react';
import { inHiddenPage, KeptPageVisible } from './keptPage';

/**
 * Focuses a view's keyboard target when the view appears, or a kept page is shown again, and nothing
 * else holds focus: Enter in the run list, then ↑/↓ in the steps, then Esc back and the arrows work again,
 * without a click. A control the reader focused (a tab, an app bar button) keeps it. "Nothing" includes
 * an element inside a hidden kept page: it can no longer be focused, but the browser leaves focus on it
 * until its next rendering step, after this effect has run (the run list's grid, when Enter opened a rollout).
 *
 * A component, not a hook, so that only it re-renders when its page is hidden or shown: the list's
 * table that holds it is not drawn again for that (a hook would make its host a consumer of the context).
 */
export function FocusOnArrival({ target }: { target: RefObject<HTMLElement | null> }) {
  const visible = useContext(KeptPageVisible);
  useEffect(() => {
    if (!visible) return;
    const active = document.activeElement;
    if (active && active !== document.body && !inHiddenPage(active)) return;
    target.current?.focus({ preventScroll: true });
  }, [target, visible]);
  return null;
}
