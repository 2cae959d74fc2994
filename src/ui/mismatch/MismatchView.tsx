import { useMemo } from 'react';
import {
  Bar,
  BarChart,
  Cell,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  type TooltipContentProps,
  XAxis,
  YAxis,
} from 'recharts';
import { DEFAULT_IS_CAP, formatCount, formatStatistic, type Mismatch, mismatchPositions, mismatchStats, plural } from '../../analysis';
import type { Rollout } from '../../format';
import { showTokenTarget, useSelectedDecoder, useSelectedRollout } from '../../state';
import { histogram, largestDeltas, perSegment, ratioPoints } from './mismatchModel';
import './mismatch.css';

/** The tokens listed by largest |d|. */
const LARGEST = 15;
const AXIS_TICK = { fontSize: 10, fill: '#5a6470' };

const num = (x: number | null) => formatStatistic(x);

/** A ratio near 1: enough digits that 1.00036 does not read as 1. */
function ratioText(x: number | null): string {
  if (x === null) return '—';
  return Math.abs(x - 1) < 1e-3 ? Number(x.toPrecision(7)).toString() : num(x);
}

/**
 * Training-inference mismatch of one rollout (§10): how far the trainer's log-probabilities are from the
 * sampler's at every trained token. A tab of its own: it reads the whole training sequence at once and
 * draws charts (recharts, loaded with this tab only), which the token view's chip grid has no room for.
 */
export function MismatchView() {
  const selected = useSelectedRollout();
  if (!selected?.record) return null;
  return <MismatchPanel record={selected.record} />;
}

/** The app has no --is-cap: it shows §10 at lint's default C, and says so. */
const cap = DEFAULT_IS_CAP;

function MismatchPanel({ record }: { record: Rollout }) {
  const positions = useMemo(() => mismatchPositions(record), [record]);
  const stats = useMemo(
    () =>
      mismatchStats(
        positions.map((p) => p.d),
        cap,
      ),
    [positions],
  );
  const bins = useMemo(() => histogram(positions.map((p) => p.d)), [positions]);
  const ratio = useMemo(() => ratioPoints(positions, cap), [positions]);
  const segments = useMemo(() => perSegment(positions, cap), [positions]);
  const largest = useMemo(() => largestDeltas(positions, LARGEST), [positions]);
  const decoder = useSelectedDecoder();

  if (!record.training) {
    return <p className="mm-empty">No training record: this rollout was not consumed by a trainer, so there is nothing to compare.</p>;
  }
  if (!record.training.logprobs) {
    return <p className="mm-empty">The training record has no logprobs: the trainer's own log-probabilities were not recorded.</p>;
  }
  if (stats.n === 0) {
    return (
      <p className="mm-empty">
        No position to compare: none of the trained tokens has both a behaviour log-probability (old_logprobs) and a trainer one at the same
        token.
      </p>
    );
  }
  const clipped = ratio.points.filter((p) => p.clipped);
  const kept = ratio.points.filter((p) => !p.clipped);
  // Padded by a quarter (on the log scale) so that a point at the extreme is drawn whole, not cut by the frame.
  const maxR = 1.25 * Math.max(cap * 1.5, ...ratio.points.map((p) => p.r));
  const minR = Math.min(1 / (cap * 1.5), ...ratio.points.map((p) => p.r)) / 1.25;
  return (
    <div className="mm">
      <Totals stats={stats} cap={cap} />
      <div className="mm__charts">
        <figure className="mm__chart" aria-label="Histogram of d">
          <figcaption>d = trainer − sampler log-probability, per trained token ({plural(stats.n, 'token')})</figcaption>
          <ResponsiveContainer width="100%" height={180}>
            <BarChart data={bins} margin={{ top: 6, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <XAxis
                type="number"
                dataKey="mid"
                domain={bins.length === 1 ? [-1, 1] : [bins[0]?.x0 ?? 0, bins.at(-1)?.x1 ?? 0]}
                tickFormatter={(v: number) => num(v)}
                tick={AXIS_TICK}
                height={20}
              />
              <YAxis allowDecimals={false} width={36} tick={AXIS_TICK} />
              <Tooltip
                isAnimationActive={false}
                cursor={{ fill: '#eceff3' }}
                content={(p: TooltipContentProps) => {
                  const bin = p.active ? (p.payload?.[0]?.payload as (typeof bins)[number] | undefined) : undefined;
                  return bin ? (
                    <div className="mm-tip">
                      d in [{num(bin.x0)}, {num(bin.x1)}]: {plural(bin.count, 'token')}
                    </div>
                  ) : null;
                }}
              />
              <ReferenceLine x={0} stroke="#8a94a0" strokeDasharray="3 3" />
              <Bar dataKey="count" fill="#0a66c2" isAnimationActive={false} barSize={bins.length === 1 ? 24 : undefined} />
            </BarChart>
          </ResponsiveContainer>
        </figure>
        <figure className="mm__chart mm__chart--wide" aria-label="Importance ratio along the sequence">
          <figcaption>
            Importance ratio r = exp(d) along the training sequence (log scale); the line is the cap C = {cap}, points above it are clipped
            ({formatCount(clipped.length)}){ratio.thinned && ' · thinned to the most extreme token of each stretch'}
          </figcaption>
          <ResponsiveContainer width="100%" height={180}>
            <ScatterChart margin={{ top: 6, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <XAxis type="number" dataKey="pos" name="position" domain={['dataMin', 'dataMax']} tick={AXIS_TICK} height={20} />
              <YAxis
                type="number"
                dataKey="r"
                name="ratio"
                scale="log"
                domain={[minR, maxR]}
                allowDataOverflow
                tickFormatter={(v: number) => num(v)}
                tick={AXIS_TICK}
                width={44}
              />
              <Tooltip
                isAnimationActive={false}
                content={(p: TooltipContentProps) => {
                  const pt = p.active ? (p.payload?.[0]?.payload as { pos: number; r: number } | undefined) : undefined;
                  return pt ? (
                    <div className="mm-tip">
                      position {pt.pos}: r = {num(pt.r)}
                    </div>
                  ) : null;
                }}
              />
              <ReferenceLine y={1} stroke="#8a94a0" strokeDasharray="3 3" />
              <ReferenceLine
                y={cap}
                stroke="#b42318"
                label={{ value: `C = ${cap}`, position: 'insideTopRight', fontSize: 10, fill: '#b42318' }}
              />
              <Scatter data={kept} fill="#0a66c2" isAnimationActive={false} shape="circle">
                {kept.map((p) => (
                  <Cell key={p.pos} r={2} />
                ))}
              </Scatter>
              <Scatter data={clipped} fill="#b42318" isAnimationActive={false} shape="cross" name="clipped" />
            </ScatterChart>
          </ResponsiveContainer>
        </figure>
      </div>
      <div className="mm__tables">
        <SegmentTable segments={segments} cap={cap} />
        <section className="mm__largest" aria-label="Largest differences">
          <h3>Tokens with the largest |d|</h3>
          <table className="mm-table">
            <thead>
              <tr>
                <th scope="col">position</th>
                <th scope="col">seg</th>
                <th scope="col">token</th>
                <th scope="col">sampler</th>
                <th scope="col">trainer</th>
                <th scope="col">d</th>
                <th scope="col">r</th>
              </tr>
            </thead>
            <tbody>
              {largest.map((p) => {
                const text = decoder?.piece(p.id) ?? null;
                return (
                  <tr key={p.pos} className={Math.exp(p.d) > cap ? 'mm-row--clipped' : undefined}>
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        aria-label={`Show position ${p.pos} in the token view`}
                        onClick={() => showTokenTarget({ seq: 'training', token: p.pos, drift: true })}
                      >
                        {p.pos}
                      </button>
                    </td>
                    <td>{p.segment}</td>
                    <td className="mono mm-token">{text === null ? `#${p.id}` : JSON.stringify(text)}</td>
                    <td>{num(p.behaviour)}</td>
                    <td>{num(p.trainer)}</td>
                    <td>{num(p.d)}</td>
                    <td>{ratioText(Math.exp(p.d))}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      </div>
    </div>
  );
}

function Totals({ stats, cap }: { stats: Mismatch; cap: number }) {
  return (
    <dl className="mm__totals" aria-label="Mismatch statistics">
      <dt>Compared</dt>
      <dd>{plural(stats.n, 'token')}</dd>
      <dt>mean |d|</dt>
      <dd>{num(stats.mean_abs)}</dd>
      <dt>max |d|</dt>
      <dd>{num(stats.max_abs)}</dd>
      <dt>ratio mean</dt>
      <dd>{ratioText(stats.ratio_mean)}</dd>
      <dt title={`Fraction of tokens with r > C = ${cap} (truncated importance sampling; lint --is-cap)`}>clipped</dt>
      <dd>{num(stats.ratio_clip_frac)}</dd>
      <dt title="k3 estimate of KL(behaviour ‖ trainer): mean of r − 1 − d">KL k3</dt>
      <dd>{num(stats.kl_k3)}</dd>
    </dl>
  );
}

function SegmentTable({ segments, cap }: { segments: ReturnType<typeof perSegment>; cap: number }) {
  return (
    <section className="mm__segments" aria-label="Per-segment means">
      <h3>Per turn (segment)</h3>
      <table className="mm-table">
        <thead>
          <tr>
            <th scope="col">seg</th>
            <th scope="col">tokens</th>
            <th scope="col">mean d</th>
            <th scope="col">mean |d|</th>
            <th scope="col">max |d|</th>
            <th scope="col" title={`r > C = ${cap}`}>
              clipped
            </th>
          </tr>
        </thead>
        <tbody>
          {segments.map((s) => (
            <tr key={s.segment}>
              <td>{s.segment}</td>
              <td>{formatCount(s.n)}</td>
              <td>{num(s.meanD)}</td>
              <td>{num(s.meanAbs)}</td>
              <td>{num(s.maxAbs)}</td>
              <td>{s.clipped}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
