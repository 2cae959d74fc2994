import { createContext, useContext, useLayoutEffect, useRef } from 'react';

/*
 * A page the shell keeps mounted while another is shown (the run page, the run list: routes.tsx `keep`).
 * It stays mounted and connected, only hidden: React's Activity disconnected its effects on hiding, which
 * for the run page's nine charts was one task of 71-113 ms at the click that left it (recharts' store
 * updates in their layout effects' cleanups), and connected them again on coming back (a 0.5 s stretch),
 * issue 25. A page hidden this way keeps the DOM focus it had (the list's grid) until the browser's next
 * rendering step: see FocusOnArrival.
 */

/**
 * The class of a kept page while hidden (app.css): `content-visibility: hidden`, which skips its contents
 * for paint, hit testing, focus and the accessibility tree and keeps their layout, and a place under the
 * page shown for its own empty box. No inherited property changes with it: with `visibility`,
 * `pointer-events` and `inert`, the whole hidden page was restyled after the next paint, 471 elements and
 * 4-6 ms for the run list each time a rollout opened from it (docs/adr/0036, issue 25).
 */
export const HIDDEN_PAGE = 'kept-page--hidden';

/** Whether an element is inside a kept page now hidden. */
export function inHiddenPage(el: Element): boolean {
  return el.closest(`.${HIDDEN_PAGE}`) !== null;
}

/** False while the page is kept hidden. */
export const KeptPageVisible = createContext(true);

/**
 * A value as last drawn while the page is hidden. Given the page's content, the same element, so React
 * does not redraw it for the URL changes of other pages (Activity used to hold those back); given its
 * data, the same data, so a snapshot read while another page is open is not filtered and sorted for a
 * page nobody sees. The new value once shown again. Remembered once committed, not when rendered: a
 * render of the page still in progress when it is hidden (its charts' deferred rows after a filter)
 * would otherwise be drawn in the click's task (0.5 s).
 */
export function useFrozenWhileHidden<T>(value: T): T {
  const visible = useContext(KeptPageVisible);
  const committed = useRef(value);
  useLayoutEffect(() => {
    if (visible) committed.current = value;
  });
  return visible ? value : committed.current;
}
