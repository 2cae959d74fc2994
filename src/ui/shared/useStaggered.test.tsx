// @vitest-environment happy-dom
import { act, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { nextStale, useStaggered } from './useStaggered';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** Three consumers, writing what they hold at each commit. */
function Consumers({ value, active, commits }: { value: string; active: boolean; commits: string[] }) {
  const held = useStaggered(value, 3, '-', active);
  useLayoutEffect(() => {
    commits.push(held.join(''));
  });
  return null;
}

function mount() {
  const commits: string[] = [];
  const root = createRoot(document.createElement('div'));
  const show = async (value: string, active = true) => {
    await act(async () => root.render(<Consumers value={value} active={active} commits={commits} />));
  };
  return { commits, show, unmount: () => act(() => root.unmount()) };
}

describe('a value handed to its consumers one at a time', () => {
  // Issue 25: the run page's later charts each get new rows in a render of their own (RunPage.tsx), so
  // recharts' work after each commit is one chart's, not eight charts' in one long task.
  it('reaches every consumer, one per commit, in order', async () => {
    const { commits, show, unmount } = mount();
    await show('a');
    expect(commits).toEqual(['---', 'a--', 'aa-', 'aaa']);
    commits.length = 0;
    await show('b');
    expect(commits).toEqual(['aaa', 'baa', 'bba', 'bbb']);
    await unmount();
  });

  it('hands nothing over while inactive, and goes on once active again', async () => {
    const { commits, show, unmount } = mount();
    await show('a', false);
    await show('b', false);
    expect(commits).toEqual(['---', '---']);
    await show('b', true);
    expect(commits.slice(2)).toEqual(['---', 'b--', 'bb-', 'bbb']);
    await unmount();
  });

  // A value that changes faster than a round (a run's snapshots as it is read): turns go on from the
  // consumer after the last served, so the last consumers are not left behind while the first are served again.
  it('goes round from the consumer after the last served', () => {
    expect(nextStale(['b', 'a', 'a'], 'b', 0)).toBe(1);
    // Consumer 0 holds an older value than the newest, but 1 and 2 come first.
    expect(nextStale(['b', 'a', 'a'], 'c', 0)).toBe(1);
    expect(nextStale(['c', 'c', 'a'], 'c', 1)).toBe(2);
    expect(nextStale(['c', 'c', 'c'], 'c', 2)).toBe(-1);
    expect(nextStale(['b', 'c', 'c'], 'c', 2)).toBe(0);
  });
});
