// @vitest-environment happy-dom
import { act, useLayoutEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import type { TokenCells } from './layout';
import { FIRST_TOKENS, useTokenCells } from './useTokenCells';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const noText = () => null;

/** Writes what each commit had: how many tokens were measured, and whether that was all of them. */
function Cells({ ids, shown, commits }: { ids: number[]; shown: number | null; commits: string[] }) {
  const cells: TokenCells = useTokenCells(ids, noText, shown);
  useLayoutEffect(() => {
    commits.push(`${cells.cells.length}${cells.complete ? ' complete' : ''}`);
  });
  return null;
}

async function commitsOf(ids: number[], shown: number | null): Promise<string[]> {
  const commits: string[] = [];
  const root = createRoot(document.createElement('div'));
  await act(async () => root.render(<Cells ids={ids} shown={shown} commits={commits} />));
  // A frame, then the task it queues.
  await act(async () => new Promise((resolve) => setTimeout(resolve, 100)));
  await act(async () => root.unmount());
  return commits;
}

describe('the chips of a long sequence measured from its start first', () => {
  // Issue 25: opening a 100k-token rollout measured every token before the first paint.
  it('draws first with the tokens up to FIRST_TOKENS past the one shown, then with all of them', async () => {
    const n = FIRST_TOKENS + 500;
    const ids = Array.from({ length: n }, (_, i) => i);
    expect(await commitsOf(ids, null)).toEqual([`${FIRST_TOKENS}`, `${n} complete`]);
    expect(await commitsOf(ids, 100)).toEqual([`${FIRST_TOKENS + 100}`, `${n} complete`]);
  });

  it('measures a short sequence whole at once, with no second render', async () => {
    expect(await commitsOf([1, 2, 3], 2)).toEqual(['3 complete']);
  });
});
