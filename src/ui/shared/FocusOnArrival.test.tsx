// @vitest-environment happy-dom
import { useRef } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { FocusOnArrival } from './FocusOnArrival';
import { HIDDEN_PAGE, KeptPageVisible, useFrozenWhileHidden } from './keptPage';

let listRenders = 0;
/** A page like the run list: a focusable grid, kept mounted, frozen while hidden by the shell's context. */
function List() {
  listRenders++;
  const grid = useRef<HTMLDivElement>(null);
  return (
    <div ref={grid} tabIndex={-1} data-testid="grid">
      <FocusOnArrival target={grid} />
    </div>
  );
}
/** The list's page: what it drew, frozen while hidden (RunListView). */
function ListPage() {
  return useFrozenWhileHidden(<List />);
}
function Steps() {
  const scroller = useRef<HTMLElement>(null);
  return (
    <section ref={scroller} tabIndex={-1} data-testid="steps">
      <FocusOnArrival target={scroller} />
    </section>
  );
}

const host = document.createElement('div');
document.body.append(host);
afterEach(() => {
  host.replaceChildren();
});

describe('focus on arrival', () => {
  it('moves from a kept page just hidden to the page shown, and back when the kept page shows again', () => {
    const root = createRoot(host);
    const draw = (rollout: boolean) =>
      flushSync(() =>
        root.render(
          <>
            <div className={rollout ? HIDDEN_PAGE : undefined}>
              <KeptPageVisible value={!rollout}>
                <ListPage />
              </KeptPageVisible>
            </div>
            {rollout && <Steps />}
          </>,
        ),
      );
    draw(false);
    const grid = host.querySelector('[data-testid=grid]');
    expect(document.activeElement).toBe(grid);
    const drawn = listRenders;
    // Enter in the list: the list hides, still holding focus; the steps take it. Hiding re-rendered only
    // the focus component, not the list that holds it.
    draw(true);
    expect(document.activeElement).toBe(host.querySelector('[data-testid=steps]'));
    expect(listRenders).toBe(drawn);
    // Esc: the steps unmount (focus falls to the body), the list shows again and takes focus back.
    draw(false);
    expect(document.activeElement).toBe(grid);
    expect(listRenders).toBe(drawn + 1);
    root.unmount();
  });

  it('leaves focus where the reader put it', () => {
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    const root = createRoot(host);
    flushSync(() => root.render(<Steps />));
    expect(document.activeElement).toBe(button);
    root.unmount();
    button.remove();
  });
});
