// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { type LoadResult, LoadState, lintReportOptions, loadedFilesFeed, urlSource } from '../../load';
import { buildChain, buildRollout, toJsonl } from '../../testing/builders';
import { toGroups, toRollout } from '../navigation';
import { DatasetProvider } from './datasetContext';
import { useAdvantages, useDatasetCounts, useGroupsById, useRolloutKeys, useRolloutRows, useSelectedIndex } from './hooks';
import { useSelectedRollout } from './useSelectedRollout';

const SOURCES = [urlSource('t', 'http://127.0.0.1/t.jsonl')];

/** What the real load makes of these records: parsed, linted and compacted as in the worker. */
function load(records: unknown[]): LoadResult {
  const state = new LoadState();
  const source = state.addSource('t.jsonl');
  state.push(source, new TextEncoder().encode(toJsonl(records)));
  state.end(source);
  return state.snapshot();
}

const g1 = [1, 0].map((reward, i) =>
  buildRollout({ rollout_id: `r-${i + 1}`, group_id: 'g-1', reward, ...buildChain([{ tool: 'finish' }]) }),
);
const g2 = buildRollout({ rollout_id: 'r-3', attempt_id: null, group_id: 'g-2', termination: 'infra_failure', reward: null });

function setup(records: unknown[]) {
  const client = new QueryClient();
  client.setQueryData(lintReportOptions(SOURCES).queryKey, load(records));
  const feed = loadedFilesFeed(client, SOURCES);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <DatasetProvider feed={feed}>{children}</DatasetProvider>
    </QueryClientProvider>
  );
  return { client, wrapper };
}

afterEach(() => window.history.replaceState(null, '', '/'));

describe('the dataset hooks', () => {
  it('give every view the same rows, keys and groups, computed once per version of the data', () => {
    const { wrapper } = setup([...g1, g2]);
    const { result } = renderHook(
      () => ({
        keys: useRolloutKeys(),
        again: useRolloutKeys(),
        rows: useRolloutRows(),
        groups: useGroupsById(),
        counts: useDatasetCounts(),
      }),
      { wrapper },
    );
    expect(result.current.keys).toEqual(['r-1#a-1', 'r-2#a-1', 'r-3']);
    expect(result.current.again).toBe(result.current.keys);
    expect(result.current.rows.map((r) => r.reward)).toEqual([1, 0, null]);
    expect([...result.current.groups.keys()]).toEqual(['g-1', 'g-2']);
    expect(result.current.counts).toMatchObject({
      rollouts: 3,
      inSignal: 2,
      terminations: [
        ['finished', 2],
        ['infra_failure', 1],
      ],
    });
  });

  it('resolve the URL’s rollout with its record, group and advantage under the URL’s mode, and follow navigation', () => {
    window.history.replaceState(null, '', '/?rollout=r-1%23a-1&view=rollout');
    const { wrapper } = setup([...g1, g2]);
    const { result } = renderHook(() => ({ selected: useSelectedRollout(), index: useSelectedIndex(), advantages: useAdvantages() }), {
      wrapper,
    });
    const first = result.current.selected;
    expect(first).toMatchObject({ key: 'r-1#a-1', index: 0, prevKey: undefined, nextKey: 'r-2#a-1', total: 3, drGrpo: false });
    expect(first?.record?.rollout_id).toBe('r-1');
    expect(first?.group?.group_id).toBe('g-1');
    expect(first?.advantage).toBeCloseTo(Math.SQRT1_2, 3);
    // The excluded rollout is not counted.
    expect(result.current.advantages[2]).toBeNull();

    act(() => toRollout('r-2#a-1', 'tokens'));
    expect(result.current.selected).toMatchObject({ key: 'r-2#a-1', index: 1, prevKey: 'r-1#a-1' });
    expect(result.current.index).toBe(1);
    act(() => window.history.replaceState(null, '', `${window.location.search}&adv=dr`));
    act(() => toGroups());
    expect(result.current.selected?.drGrpo).toBe(true);
    expect(result.current.selected?.advantage).toBeCloseTo(-0.5, 6);
  });

  it('hand out the same record for the same rollout, and null for a key the data does not have', () => {
    window.history.replaceState(null, '', '/?rollout=r-2%23a-1');
    const { wrapper } = setup([...g1, g2]);
    const a = renderHook(() => useSelectedRollout(), { wrapper });
    const b = renderHook(() => useSelectedRollout(), { wrapper });
    expect(a.result.current?.record).toBe(b.result.current?.record);
    act(() => toRollout('r-404'));
    expect(a.result.current).toBeNull();
  });

  it('re-render with the next version when the data changes (a live file’s appended lines)', () => {
    const { client, wrapper } = setup(g1);
    const { result } = renderHook(() => useRolloutKeys(), { wrapper });
    expect(result.current).toHaveLength(2);
    act(() => client.setQueryData(lintReportOptions(SOURCES).queryKey, load([...g1, g2])));
    expect(result.current).toEqual(['r-1#a-1', 'r-2#a-1', 'r-3']);
  });

  it('show an empty dataset before anything is read', () => {
    const client = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <DatasetProvider feed={loadedFilesFeed(client, SOURCES)}>{children}</DatasetProvider>
      </QueryClientProvider>
    );
    const { result } = renderHook(() => ({ rows: useRolloutRows(), selected: useSelectedRollout() }), { wrapper });
    expect(result.current.rows).toEqual([]);
    expect(result.current.selected).toBeNull();
  });
});
