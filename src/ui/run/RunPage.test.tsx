// @vitest-environment happy-dom
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { encodeIndexShard, type RunManifest } from '../../format';
import { type DatasetFeed, RangeReader, type RunSnapshot, readRun, runDataset, runSource, type StepRange } from '../../load';
import { DatasetProvider } from '../../state';
import { buildIndexRow } from '../../testing/builders';
import { RunPage } from './RunPage';

/** A run of 40 rollouts over 10 steps, read as the page reads one (from a host, by its manifest). */
function runFiles(): Record<string, BodyInit> {
  const rows = Array.from({ length: 40 }, (_, k) =>
    buildIndexRow({ line: k + 1, rollout_id: `r-${k}`, training_step: k >> 2, reward: k % 2 }),
  );
  const manifest: RunManifest = {
    version: 1,
    source_base: '../run',
    files: [
      {
        file: 'step_0000.jsonl',
        size: 0,
        mtime_ms: 0,
        gzip: false,
        parse_errors: [],
        shards: [{ path: 'shards/a.parquet', rows: 40, from_line: 1, to_line: 40, from_byte: 0, to_byte: 0 }],
      },
    ],
  };
  return {
    '/index/manifest.json': JSON.stringify(manifest),
    '/index/shards/a.parquet': new Uint8Array(encodeIndexShard(rows)),
  };
}

async function snapshot() {
  const files = runFiles();
  const fetch = (async (input: RequestInfo | URL) =>
    new Response(files[new URL(String(input)).pathname] ?? null)) as typeof globalThis.fetch;
  return readRun('http://host.test/index/manifest.json', null, { fetch });
}

/** The run's rows in `range` as the shell's feed gives them: the dataset carries the whole run's columns. */
function feedOf(snap: RunSnapshot, range: StepRange | null): DatasetFeed {
  const dataset = runDataset(snap, range, { reader: new RangeReader(), records: new Map() });
  return { current: () => dataset, subscribe: () => () => {} };
}

const plotted = (root: HTMLElement) =>
  [...root.querySelectorAll('figure.trend')]
    .filter((f) => f.querySelector('.recharts-responsive-container'))
    .map((f) => f.getAttribute('aria-label'));

describe('the run page', () => {
  it('draws the reward chart in its first render, the other charts (empty frames until then) in a later one', async () => {
    const snap = await snapshot();
    const el = document.createElement('div');
    document.body.append(el);
    const root = createRoot(el);
    flushSync(() =>
      root.render(
        <DatasetProvider feed={feedOf(snap, null)}>
          <RunPage />
        </DatasetProvider>,
      ),
    );
    const frames = [...el.querySelectorAll('figure.trend')].map((f) => f.getAttribute('aria-label'));
    expect(frames.length).toBe(8);
    expect(plotted(el)).toEqual(['Reward']);
    await new Promise((r) => setTimeout(r, 200));
    expect(plotted(el)).toEqual(frames);
    root.unmount();
  });

  it('charts the whole run whichever training steps the feed’s rows are, and nothing without a run', async () => {
    const snap = await snapshot();
    const el = document.createElement('div');
    document.body.append(el);
    const root = createRoot(el);
    const show = (feed: DatasetFeed) =>
      flushSync(() =>
        root.render(
          <DatasetProvider feed={feed}>
            <RunPage />
          </DatasetProvider>,
        ),
      );
    show(feedOf(snap, { from: 2, to: 2 }));
    const summary = () => el.querySelector('[aria-label="Run"]')?.textContent;
    expect(summary()).toMatch(/^40 rollouts over 10 training steps \(0–9\)/);
    show({ current: () => undefined, subscribe: () => () => {} });
    expect(el.textContent).toBe('');
    root.unmount();
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    history.replaceState(null, '', '/');
  });

  it('draws its frame while the run is read, the reward chart’s axes once the shards are asked for, and keeps that chart when the rows come', async () => {
    const files = runFiles();
    const asked: string[] = [];
    let releaseShard = () => {};
    const shardHeld = new Promise<void>((r) => (releaseShard = r));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
      const path = new URL(String(input)).pathname.replace('/skeleton/', '/index/');
      asked.push(path);
      if (path.endsWith('.parquet')) await shardHeld;
      return new Response(files[path] ?? null);
    });
    history.replaceState(null, '', '/?run=http://host.test/skeleton/');
    const source = runSource('http://host.test/skeleton/manifest.json');
    const el = document.createElement('div');
    document.body.append(el);
    const root = createRoot(el);
    flushSync(() =>
      root.render(
        <DatasetProvider feed={source.feed(null)}>
          <RunPage />
        </DatasetProvider>,
      ),
    );
    const summary = () => el.querySelector('[aria-label="Run"]')?.textContent;
    const taskSelect = () => el.querySelector<HTMLSelectElement>('select');
    // Before the manifest: the frame, with nothing for recharts to lay out and filters not yet usable.
    expect(summary()).toBe('Reading the run index…');
    expect(plotted(el)).toEqual([]);
    expect(taskSelect()?.disabled).toBe(true);
    // The manifest read and the shard asked for (held): the reward chart is laid out, still without rows.
    await vi.waitFor(() => expect(summary()).toBe('Reading the run index: 40 rollouts in 1 file…'));
    expect(asked).toEqual(['/index/manifest.json', '/index/shards/a.parquet']);
    expect(plotted(el)).toEqual(['Reward']);
    const rewardChart = el.querySelector('[aria-label="Reward"] .recharts-responsive-container');
    // Nothing said of the run that its rows would have to tell: no "no rollout has one", no steps 0-0.
    expect(el.textContent).not.toContain('Nothing to chart');
    expect(el.textContent).not.toContain('no rollout has one');
    expect(el.querySelectorAll('input[placeholder]').length).toBe(0);
    // The rows come: the same chart (not a new one) gets them, the others follow, and the filters work.
    releaseShard();
    await vi.waitFor(() => expect(summary()).toMatch(/^40 rollouts over 10 training steps \(0–9\)/));
    expect(el.querySelector('[aria-label="Reward"] .recharts-responsive-container')).toBe(rewardChart);
    expect(taskSelect()?.disabled).toBe(false);
    expect(el.querySelector('input[placeholder]')?.getAttribute('placeholder')).toBe('0-9');
    await vi.waitFor(() => expect(plotted(el).length).toBe(8));
    // A filter: its control answers in the click's own render; the count and the charts follow in a
    // background render (a deferred value), so the click's task does not aggregate a million rows.
    expect(el.textContent).not.toContain('rollouts counted');
    const box = el.querySelector<HTMLInputElement>('input[type="checkbox"]');
    expect(box?.checked).toBe(true);
    flushSync(() => box?.click());
    expect(box?.checked).toBe(false);
    await vi.waitFor(() => expect(el.textContent).toContain('0 of 40 rollouts counted'));
    expect(el.textContent).toContain('No rollout passes the filter.');
    root.unmount();
  });
});
