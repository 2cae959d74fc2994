import { createContext, type ReactElement, useContext, useLayoutEffect, useRef } from 'react';

/*
 * A page the shell keeps mounted while another is shown (the run page, routes.tsx `keep`). It stays
 * mounted and connected, only hidden: React's Activity disconnected its effects on hiding, which for the
 * run page's nine charts was one task of 71-113 ms at the click that left it (recharts' store updates in
 * their layout effects' cleanups), and connected them again on coming back (a 0.5 s stretch), issue 25.
 */

/** False while the page is kept hidden. */
export const KeptPageVisible = createContext(true);

/**
 * The page's content as last drawn while it is hidden: the same element, so React does not redraw it for
 * the URL changes of other pages (Activity used to hold those back). Drawn afresh once shown again.
 * Remembered once committed, not when rendered: a render of the page still in progress when it is hidden
 * (its charts' deferred rows after a filter) would otherwise be drawn in the click's task (0.5 s).
 */
export function useFrozenWhileHidden(content: ReactElement): ReactElement {
  const visible = useContext(KeptPageVisible);
  const committed = useRef(content);
  useLayoutEffect(() => {
    if (visible) committed.current = content;
  });
  return visible ? content : committed.current;
}
