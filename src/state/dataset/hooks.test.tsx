// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { summarizeRollout } from '../../analysis';
import { encodeIndexShard, type Rollout, type RunManifest } from '../../format';
import { type DatasetFeed, type LoadResult, LoadState, lintReportOptions, loadedFilesFeed, RunSource, urlSource } from '../../load';
import { buildChain, buildIndexRow, buildRollout, toJsonl } from '../../testing/builders';
import { toGroups, toRollout } from '../navigation';
import { DatasetProvider, useRunSnapshot } from './datasetContext';
import { useAdvantages, useDatasetCounts, useGroupsById, useRolloutKeys, useRolloutRows, useSelectedIndex } from './hooks';
import { useSelectedRollout } from './useSelectedRollout';

const SOURCES = [urlSource('t', 'http://127.0.0.1/t.jsonl')];
const MANIFEST = 'http://127.0.0.1/index/manifest.json';
const bytes = (text: string) => new TextEncoder().encode(text);

/** What the real load makes of these records: parsed, linted and compacted as in the worker. */
function load(records: unknown[]): LoadResult {
  const state = new LoadState();
  const source = state.addSource('t.jsonl');
  state.push(source, bytes(toJsonl(records)));
  state.end(source);
  return state.snapshot();
}

/**
 * A run directory and its index as `trajscope index` writes them (a row per rollout with lint's summary
 * and the line's byte span, a shard per file, the manifest), on a host in memory that answers ranges.
 */
function runHost() {
  const served = new Map<string, Uint8Array>();
  const manifest: RunManifest = { version: 1, source_base: '../run', files: [] };
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = served.get(new URL(String(input)).pathname);
    if (!body) return new Response('', { status: 404 });
    const range = /^bytes=(\d+)-(\d+)$/.exec(new Headers(init?.headers).get('Range') ?? '');
    if (!range) return new Response(body as unknown as BodyInit);
    return new Response(body.slice(Number(range[1]), Number(range[2]) + 1) as unknown as BodyInit, { status: 206 });
  }) as typeof globalThis.fetch;
  const addFile = (file: string, records: Rollout[]) => {
    let offset = 0;
    const rows = records.map((record, i) => {
      const { task_id, rollout_id, attempt_id, group_id, termination, in_signal, reward, steps } = summarizeRollout({
        file,
        line: i + 1,
        record,
      });
      const length = bytes(JSON.stringify(record)).length;
      const at = { file, line: i + 1, offset, length, training_step: manifest.files.length, policy_version: record.policy_version ?? null };
      offset += length + 1;
      return buildIndexRow({ ...at, task_id, rollout_id, attempt_id, group_id, termination, in_signal, reward, steps });
    });
    const text = bytes(toJsonl(records));
    const path = `shards/${file}.parquet`;
    served.set(`/run/${file}`, text);
    served.set(`/index/${path}`, new Uint8Array(encodeIndexShard(rows)));
    const shard = { path, rows: rows.length, from_line: 1, to_line: rows.length, from_byte: 0, to_byte: text.length };
    manifest.files.push({ file, size: text.length, mtime_ms: 0, gzip: false, shards: [shard], parse_errors: [] });
    served.set('/index/manifest.json', bytes(JSON.stringify(manifest)));
  };
  return { fetch, addFile };
}

interface Opened {
  feed: DatasetFeed;
  /** Puts the records in the client's cache or on the host, as the source would find them. */
  grow(records: Rollout[]): Promise<void>;
  client: QueryClient;
}

/** The two sources a view's data comes from: files read into the page, a run read from its index. */
const SOURCE_KINDS: [name: string, open: (records: Rollout[]) => Promise<Opened>, empty: () => DatasetFeed][] = [
  [
    'files read into the page',
    async (records) => {
      const client = new QueryClient();
      let all = records;
      client.setQueryData(lintReportOptions(SOURCES).queryKey, load(all));
      const grow = async (more: Rollout[]) => {
        all = [...all, ...more];
        client.setQueryData(lintReportOptions(SOURCES).queryKey, load(all));
      };
      return { feed: loadedFilesFeed(client, SOURCES), grow, client };
    },
    () => loadedFilesFeed(new QueryClient(), SOURCES),
  ],
  [
    'a run read from its index',
    async (records) => {
      const host = runHost();
      host.addFile('t.jsonl', records);
      const source = new RunSource(MANIFEST, host.fetch);
      await source.refresh();
      // A run grows by files (a training step each), read on the next poll (after any poll under way).
      const grow = async (more: Rollout[]) => {
        host.addFile('u.jsonl', more);
        await source.refresh();
        await source.refresh();
      };
      return { feed: source.feed(null), grow, client: new QueryClient() };
    },
    // A host that has not answered yet.
    () => new RunSource(MANIFEST, () => new Promise<Response>(() => {})).feed(null),
  ],
];

const g1 = [1, 0].map((reward, i) =>
  buildRollout({ rollout_id: `r-${i + 1}`, group_id: 'g-1', reward, ...buildChain([{ tool: 'finish' }]) }),
);
const g2 = buildRollout({ rollout_id: 'r-3', attempt_id: null, group_id: 'g-2', termination: 'infra_failure', reward: null });

function wrapperOf(client: QueryClient, feed: DatasetFeed) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <DatasetProvider feed={feed}>{children}</DatasetProvider>
    </QueryClientProvider>
  );
}

async function setup(open: (records: Rollout[]) => Promise<Opened>, records: Rollout[]) {
  const opened = await open(records);
  return { ...opened, wrapper: wrapperOf(opened.client, opened.feed) };
}

afterEach(() => {
  cleanup();
  window.history.replaceState(null, '', '/');
});

describe.each(SOURCE_KINDS)('the dataset hooks over %s', (kind, open, empty) => {
  it('give every view the same rows, keys and groups, computed once per version of the data', async () => {
    const { wrapper } = await setup(open, [...g1, g2]);
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

  it('resolve the URL’s rollout with its record, group and advantage under the URL’s mode, and follow navigation', async () => {
    window.history.replaceState(null, '', '/?rollout=r-1%23a-1&view=rollout');
    const { wrapper } = await setup(open, [...g1, g2]);
    const { result } = renderHook(() => ({ selected: useSelectedRollout(), index: useSelectedIndex(), advantages: useAdvantages() }), {
      wrapper,
    });
    expect(result.current.selected).toMatchObject({ key: 'r-1#a-1', index: 0, prevKey: undefined, nextKey: 'r-2#a-1', total: 3 });
    // A run's record is read by range, so it arrives later; a loaded file's is there at once.
    await waitFor(() => expect(result.current.selected?.record?.rollout_id).toBe('r-1'));
    const first = result.current.selected;
    expect(first?.drGrpo).toBe(false);
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

  it('hand out the same record for the same rollout, and null for a key the data does not have', async () => {
    window.history.replaceState(null, '', '/?rollout=r-2%23a-1');
    const { wrapper } = await setup(open, [...g1, g2]);
    const a = renderHook(() => useSelectedRollout(), { wrapper });
    const b = renderHook(() => useSelectedRollout(), { wrapper });
    await waitFor(() => expect(a.result.current?.record?.rollout_id).toBe('r-2'));
    await waitFor(() => expect(b.result.current?.record).toBe(a.result.current?.record));
    act(() => toRollout('r-404'));
    expect(a.result.current).toBeNull();
  });

  it('re-render with the next version when the data changes (a live file’s appended lines, a run’s new step)', async () => {
    const { wrapper, grow } = await setup(open, g1);
    const { result } = renderHook(() => useRolloutKeys(), { wrapper });
    expect(result.current).toHaveLength(2);
    await act(() => grow([g2]));
    expect(result.current).toEqual(['r-1#a-1', 'r-2#a-1', 'r-3']);
  });

  it('show an empty dataset before anything is read', () => {
    const { result } = renderHook(() => ({ rows: useRolloutRows(), selected: useSelectedRollout(), run: useRunSnapshot() }), {
      wrapper: wrapperOf(new QueryClient(), empty()),
    });
    expect(result.current.rows).toEqual([]);
    expect(result.current.selected).toBeNull();
    expect(result.current.run).toBeNull();
  });

  it('carry the whole run’s columns with a run’s data, and none with files’', async () => {
    const { wrapper } = await setup(open, [...g1, g2]);
    const { result } = renderHook(() => useRunSnapshot(), { wrapper });
    expect(result.current?.rows ?? null).toBe(kind === 'a run read from its index' ? 3 : null);
  });
});
