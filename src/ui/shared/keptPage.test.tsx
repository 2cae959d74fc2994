// @vitest-environment happy-dom
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { KeptPageVisible, useFrozenWhileHidden } from './keptPage';

let renders = 0;
function Counted({ n }: { n: number }) {
  renders++;
  return <p>{n}</p>;
}
function Page({ n }: { n: number }) {
  return useFrozenWhileHidden(<Counted n={n} />);
}

describe('a kept page hidden in place', () => {
  it('draws nothing new while hidden, however its inputs change, and catches up once shown', () => {
    const host = document.createElement('div');
    const root = createRoot(host);
    const show = (n: number, visible: boolean) =>
      flushSync(() =>
        root.render(
          <KeptPageVisible value={visible}>
            <Page n={n} />
          </KeptPageVisible>,
        ),
      );
    show(1, true);
    expect(host.textContent).toBe('1');
    const drawn = renders;
    // Hidden: other pages' URL changes reach it, and it keeps what it drew without rendering its content.
    show(2, false);
    show(3, false);
    expect(host.textContent).toBe('1');
    expect(renders).toBe(drawn);
    show(4, true);
    expect(host.textContent).toBe('4');
    expect(renders).toBe(drawn + 1);
    root.unmount();
  });
});
