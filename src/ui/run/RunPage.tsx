import { type ComponentProps, useContext, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { Area, Bar, Line } from 'recharts';
import { formatStatistic, runTrends, type TrendFilter, terminationInfo } from '../../analysis';
import { formatCount, type RunManifest } from '../../format';
import { manifestRows, preloadLineReading, RunColumns, type RunSnapshot } from '../../load';
import { compareSteps, formatRange, openSteps, selectSteps, useRun, useRunSnapshot, useSelection } from '../../state';
import { KeptPageVisible, useFrozenWhileHidden } from '../shared/keptPage';
import { useStaggered } from '../shared/useStaggered';
import { RangeInput } from './RangeInput';
import { RunCompare } from './RunCompare';
import { RunFilters } from './RunFilters';
import { type ChartRow, chartRows, topCodes } from './runModel';
import { TrendChart } from './TrendChart';
import './run.css';

/** A share: whole percents, one decimal below 10 % (a 2.5 % truncation rate is not 3 %). */
const pct = (v: number) => (v !== 0 && Math.abs(v) < 0.1 ? `${(v * 100).toFixed(1)}%` : `${Math.round(v * 100)}%`);
const reward = (v: number) => formatStatistic(v, 3);
/**
 * The reward axis: the means and their ±1 std band, at least 0 to 1 (the usual reward range), on quarter
 * steps; the band is clamped to that span (runModel.ts), so a binary reward's band no longer set the axis
 * at −0.45 to 1.35.
 */
const REWARD_DOMAIN: [(min: number) => number, (max: number) => number] = [
  (min) => Math.floor(Math.min(0, min) * 4) / 4,
  (max) => Math.ceil(Math.max(1, max) * 4) / 4,
];
// Three significant digits and no trailing zeros (ticks read 0, 2, 4, not 0.000, 2.00, 4.00).
const num = (v: number) => (Math.abs(v) >= 100 ? formatCount(Math.round(v)) : formatStatistic(v, 3));
const TERM_COLORS: Record<string, string> = {
  finished: '#2da44e',
  budget_exhausted: '#d4a72c',
  invalid_call: '#e16f24',
  infra_failure: '#8c959f',
  cancelled: '#b7bdc4',
};
const CODE_COLORS = ['#8250df', '#cf222e', '#0a66c2', '#bf8700', '#1a7f37', '#57606a'];
const line = { isAnimationActive: false, dot: false, strokeWidth: 1.6, connectNulls: true } as const;
const NO_ROWS: readonly ChartRow[] = [];
/** The y domain of a share of every rollout (a new array each render would redraw a memoized chart). */
const WHOLE: [number, number] = [0, 1];
/** Its ticks: every quarter (recharts' own, for a stacked share whose sums are a float just over 1, were 0, 30, 60, 90 %). */
const QUARTERS = [0, 0.25, 0.5, 0.75, 1];
/** The termination chart's points drawn as bars at most; more are a stepped area (termBars). */
const BARS_UP_TO = 60;

/** What the charts draw of the run's trends, made once per aggregation and shared by every chart. */
interface ChartView {
  rows: readonly ChartRow[];
  codes: readonly { index: number; code: string; rollouts: number }[];
  terms: readonly { k: number; name: string; rollouts: number }[];
}
const NO_VIEW: ChartView = { rows: NO_ROWS, codes: [], terms: [] };

const REWARD = (
  <>
    <Area dataKey="band" stroke="none" fill="#0a66c2" fillOpacity={0.15} isAnimationActive={false} connectNulls />
    <Line dataKey="rewardMean" name="mean" stroke="#0a66c2" {...line} />
  </>
);
/** The charts drawn after the reward chart, in page order (the last two only for a run that has their values). */
const LATER = ['signal', 'termination', 'zeroVariance', 'length', 'truncated', 'findings', 'regressions', 'mismatch', 'kl'] as const;
type LaterChart = (typeof LATER)[number];
type ChartSpec = Pick<ComponentProps<typeof TrendChart>, 'title' | 'note' | 'yLabel' | 'format' | 'domain' | 'yTicks' | 'children'>;
/**
 * The later charts whose series never change, made once: a chart is memoized, and new elements each render
 * would redraw it. Termination and findings draw a series per termination or code of the run (RunTrends).
 */
const FIXED: Partial<Record<LaterChart, ChartSpec>> = {
  signal: {
    title: 'In the policy signal',
    note: 'share of rollouts',
    yLabel: '% of rollouts',
    format: pct,
    domain: WHOLE,
    yTicks: QUARTERS,
    children: <Line dataKey="signalShare" name="in signal" stroke="#1a7f37" {...line} />,
  },
  zeroVariance: {
    title: 'Zero-variance groups',
    note: 'share of groups with ≥2 rewards',
    yLabel: '% of groups',
    format: pct,
    domain: WHOLE,
    yTicks: QUARTERS,
    children: <Line dataKey="zeroVarianceShare" name="zero variance" stroke="#bf8700" {...line} />,
  },
  length: {
    title: 'Response length',
    note: 'generated tokens, mean',
    yLabel: 'tokens',
    format: num,
    children: <Line dataKey="generatedMean" name="tokens" stroke="#8250df" {...line} />,
  },
  truncated: {
    title: 'Truncated',
    note: 'cut at max_new_tokens',
    yLabel: '% of rollouts',
    format: pct,
    domain: 'share',
    children: <Line dataKey="truncatedShare" name="truncated" stroke="#cf222e" {...line} />,
  },
  regressions: {
    title: 'Regressions',
    note: 'share of rollouts with one',
    yLabel: '% of rollouts',
    format: pct,
    domain: 'share',
    children: <Line dataKey="regressionRate" name="with a regression" stroke="#57606a" {...line} />,
  },
  // Two charts: KL k3 is orders of magnitude below max |Δlogp| and drew flat at 0 on its axis.
  mismatch: {
    title: 'Training–inference mismatch',
    note: 'max |Δlogp| per rollout, mean over rollouts (§10)',
    yLabel: 'nats',
    children: <Line dataKey="mismatchMaxMean" name="max |Δlogp|" stroke="#cf222e" {...line} />,
  },
  kl: {
    title: 'KL k3',
    note: 'per rollout, mean over rollouts (§10)',
    yLabel: 'nats',
    children: <Line dataKey="klMean" name="KL k3" stroke="#0a66c2" {...line} />,
  },
};
/** The columns of a run whose first rows are still read: none. */
const NO_COLUMNS = new RunColumns(0);

/**
 * A run's trends over training steps; a click or drag selects steps, which open in the run list and groups.
 * It charts the whole run (the dataset's run columns), whichever steps the other pages show.
 */
export function RunPage() {
  const snapshot = useRunSnapshot();
  const run = useRun();
  // No run (files are open): nothing; a run not read yet: the page's frame.
  if (!snapshot && !run) return null;
  return <RunTrends snapshot={snapshot} manifest={snapshot?.manifest ?? run?.state.manifest ?? null} />;
}

/**
 * The page, from the moment the run's manifest is asked for (the shell draws it before the data, routes.tsx
 * `beforeData`): with no snapshot yet it is the page's frame, and once the manifest is read and the first
 * shards asked for, the reward chart's axes. Recharts laying out its first chart on a cold page took 450 ms
 * of this thread once the first rows had come; now it does that while the first shard downloads and decodes
 * in the worker, and the rows add a line to a chart already there (issue 25).
 */
function RunTrends({ snapshot, manifest }: { snapshot: RunSnapshot | null; manifest: RunManifest | null }) {
  const { steps: selected, vsSteps: compare } = useSelection();
  const [filter, setFilter] = useState<TrendFilter>({ tasks: null, terminations: null });
  // The filter's controls answer at once; the aggregation and the charts follow in a background render,
  // not in the task of the click (65-100 ms there, a million rows).
  const counted = useDeferredValue(filter);
  const columns = snapshot?.columns ?? NO_COLUMNS;
  const n = snapshot?.rows ?? 0;
  const trends = useMemo(() => {
    const t0 = performance.now();
    const t = runTrends({ ...columns, n, codeNames: columns.codeNames }, counted);
    // Read by `npm run bench` (re-aggregation after a filter change).
    performance.measure('trajscope:run-aggregate', { start: t0, end: performance.now() });
    return t;
  }, [columns, n, counted]);
  const view = useMemo<ChartView>(
    () => ({
      rows: chartRows(trends),
      codes: topCodes(trends, columns.codeNames),
      terms: columns.termination.values.map((t, k) => ({
        k,
        name: t ?? '',
        rollouts: trends.points.reduce((n, p) => n + (p.terminations[k] ?? 0), 0),
      })),
    }),
    [trends, columns],
  );
  const { rows } = view;
  const first = trends.points[0]?.step ?? 0;
  const last = trends.points[trends.points.length - 1]?.step ?? 0;
  const span = trends.points.length > 0 ? { min: first, max: last } : {};
  const binWidth = rows[0] ? rows[0].stepTo - rows[0].step + 1 : 1;
  const hasMismatch = trends.points.some((p) => p.mismatchN > 0);
  const hasKl = trends.points.some((p) => p.klN > 0);
  useEffect(() => {
    if (rows.length === 0) return;
    performance.mark('trajscope:run-chart');
    preloadLineReading();
  }, [rows.length]);
  // The reward chart first; the others follow one at a time once it has rows, each in a background render
  // of its own (shared/useStaggered.ts), so neither the first chart nor a filter waits for them: recharts
  // drew nine charts in one long task (~0.7 s on a busy core), and eight after a filter in one of ~250 ms.
  // Not `useDeferredValue(rows, NO_ROWS)`: mounted inside a Suspense boundary showing its fallback (the
  // page's script just loaded), each render of that kind asked for a new deferred render before the page
  // could commit: 7 to 9 restarts, 250 ms, between the first rows and the first chart. Each chart is
  // memoized (TrendChart), so a render that changes none of its props (a filter's, for the seven charts
  // not yet given its rows) does not redraw it.
  const visible = useContext(KeptPageVisible);
  const laterCharts = LATER.filter((c) => (c === 'mismatch' ? hasMismatch : c === 'kl' ? hasKl : true));
  const staged = useStaggered(view, laterCharts.length, NO_VIEW, visible && rows.length > 0);
  const viewOf = (c: LaterChart) => staged[laterCharts.indexOf(c)] ?? NO_VIEW;
  const chart = { selected, compare, onSelect: selectSteps };
  const termView = viewOf('termination');
  const termBars = useMemo(
    () =>
      termView.terms
        .filter((t) => t.rollouts > 0)
        .map((t) => {
          const series = { dataKey: `t${t.k}`, name: terminationInfo(t.name).label, stackId: 'term', isAnimationActive: false } as const;
          const fill = TERM_COLORS[t.name] ?? '#6e7781';
          // Past BARS_UP_TO points, a stacked area drawn in steps (one path per cause) instead of a stacked bar
          // per point: it reads the same at that density, and 800 bars (200 points, four causes) made tasks of
          // 110-330 ms each time the chart got rows (after every filter); a few bars read better than steps.
          return termView.rows.length > BARS_UP_TO ? (
            <Area key={t.k} {...series} type="step" stroke="none" fill={fill} fillOpacity={0.9} legendType="square" />
          ) : (
            <Bar key={t.k} {...series} fill={fill} />
          );
        }),
    [termView],
  );
  const findingsView = viewOf('findings');
  const codeLines = useMemo(
    () =>
      findingsView.codes.map((c, i) => (
        <Line key={c.index} dataKey={`c${c.index}`} name={c.code} stroke={CODE_COLORS[i % CODE_COLORS.length]} {...line} />
      )),
    [findingsView],
  );
  const files = manifest?.files.length ?? 0;
  const filesText = `${formatCount(files)} file${files === 1 ? '' : 's'}`;

  return useFrozenWhileHidden(
    <div className="run-page">
      <section className="run-page__summary" aria-label="Run">
        {/* One item of the flex row: its bold numbers keep a word's space around them, not the row's gap. */}
        {snapshot !== null ? (
          <span>
            <strong>{formatCount(n)}</strong> rollouts over <strong>{formatCount(trends.points.length)}</strong> training steps ({first}–
            {last}) in {filesText}
          </span>
        ) : manifest !== null ? (
          <span>
            Reading the run index: <strong>{formatCount(manifestRows(manifest))}</strong> rollouts in {filesText}…
          </span>
        ) : (
          <span>Reading the run index…</span>
        )}
        {trends.withoutStep > 0 && (
          <span className="faint"> · {formatCount(trends.withoutStep)} without a training step (not charted)</span>
        )}
        {binWidth > 1 && <span className="faint"> · each point sums {binWidth} steps</span>}
        {snapshot !== null && <span className="faint"> · new steps appear as the run grows</span>}
      </section>
      <RunFilters columns={snapshot && columns} filter={filter} onChange={setFilter} matched={trends.matched} total={n} />
      <section className="run-page__select" aria-label="Selected steps">
        <RangeInput label="Steps" value={selected} {...span} onChange={selectSteps} />
        <RangeInput label="Compare with" value={compare} {...span} onChange={compareSteps} />
        {selected ? (
          <>
            <button type="button" className="run-page__open" onClick={() => openSteps(selected, 'list')}>
              Open rollouts of step{selected.from === selected.to ? '' : 's'} {formatRange(selected)}
            </button>
            <button type="button" onClick={() => openSteps(selected, 'groups')}>
              Groups
            </button>
          </>
        ) : (
          <span className="faint">Click a step in a chart, or drag across steps, to select them.</span>
        )}
      </section>
      {selected && compare && <RunCompare points={trends.points} a={compare} b={selected} />}
      {rows.length === 0 && snapshot !== null ? (
        <div className="placeholder">
          <h2>Nothing to chart</h2>
          <p>{trends.matched === 0 ? 'No rollout passes the filter.' : 'No rollout has a training step.'}</p>
        </div>
      ) : (
        <div className="run-page__charts">
          <TrendChart
            {...chart}
            rows={rows}
            title="Reward"
            note="mean, band ±1 std, in the signal"
            yLabel="reward"
            format={reward}
            domain={REWARD_DOMAIN}
            frame={manifest !== null}
          >
            {REWARD}
          </TrendChart>
          {laterCharts.map((kind) =>
            kind === 'termination' ? (
              <TrendChart
                key={kind}
                {...chart}
                rows={termView.rows}
                title="Termination"
                note="share of rollouts"
                yLabel="% of rollouts"
                legend
                format={pct}
                domain={WHOLE}
                yTicks={QUARTERS}
              >
                {termBars}
              </TrendChart>
            ) : kind === 'findings' ? (
              <TrendChart
                key={kind}
                {...chart}
                rows={findingsView.rows}
                title="Findings"
                legend={findingsView.codes.length > 0}
                note={
                  findingsView.codes.length === 0 && findingsView.rows.length > 0
                    ? 'no rollout has one (findings about whole groups, such as zero variance, are charted above)'
                    : 'share of rollouts with the code'
                }
                yLabel="% of rollouts"
                format={pct}
                domain="share"
              >
                {codeLines}
              </TrendChart>
            ) : (
              <FixedChart key={kind} spec={FIXED[kind]} {...chart} rows={viewOf(kind).rows} />
            ),
          )}
        </div>
      )}
    </div>,
  );
}

/** A later chart of fixed series (FIXED). */
function FixedChart({
  spec,
  ...props
}: { spec: ChartSpec | undefined } & Pick<ComponentProps<typeof TrendChart>, 'rows' | 'selected' | 'compare' | 'onSelect'>) {
  return spec ? <TrendChart {...props} {...spec} /> : null;
}
