import { Bar, BarChart, ResponsiveContainer, Tooltip, type TooltipContentProps, XAxis, YAxis } from 'recharts';
import { FINDING_INFO, type FindingCode, formatCount, type GroupOverview, plural } from '../../analysis';
import { formatReward } from '../shared/format';
import { GROUP_BADGES } from './groupModel';

interface Props {
  overview: GroupOverview;
  codeCounts: ReadonlyArray<{ code: FindingCode; groups: number }>;
  /** Rollouts whose reward counts in their group (in the signal, with a numeric reward). */
  counted: number;
  activeCode: FindingCode | null;
  onCode: (code: FindingCode | null) => void;
}

function percent(n: number, of: number): string {
  return of === 0 ? '0%' : `${Math.round((100 * n) / of)}%`;
}

/** Across all groups: how much of the data can teach the policy anything, and what is wrong with the rest. */
export function GroupsSummary({ overview: o, codeCounts, counted, activeCode, onCode }: Props) {
  const hist = histogramBins(o.meanHistogram);
  const most = Math.max(1, ...hist.map((b) => b.count));
  // Enough decimals that neighbouring bins read differently.
  const width = (hist[0]?.to ?? 0) - (hist[0]?.from ?? 0);
  const decimals = width > 0 ? Math.min(6, Math.max(2, Math.ceil(-Math.log10(width)))) : 2;
  const bins = hist.map((b) => ({
    ...b,
    mid: (b.from + b.to) / 2,
    label: b.from === b.to ? formatReward(b.from) : `${b.from.toFixed(decimals)}–${b.to.toFixed(decimals)}`,
  }));
  // A numeric axis from the lowest mean to the highest, ticks on bin edges: each bar spans its range
  // (a category axis would label a bar by one number, its lower edge, and read as that value).
  const lo = hist[0]?.from ?? 0;
  const hi = hist.at(-1)?.to ?? 0;
  const single = hi === lo;
  const edges = single ? [lo] : [lo, ...hist.map((b) => b.to)];
  const ticks = edges.length <= 6 ? edges : [lo, (lo + hi) / 2, hi];
  return (
    <section className="gsummary" aria-label="Summary across groups">
      <dl className="gsummary__facts">
        <dt>Groups</dt>
        <dd>
          <strong>{formatCount(o.groups)}</strong>
          {o.empty > 0 && <span className="faint"> · {formatCount(o.empty)} with nothing to score</span>}
        </dd>
        <dt>Zero variance</dt>
        <dd className={o.zeroVariance > 0 ? 'count--warning' : undefined}>
          {formatCount(o.zeroVariance)} of {formatCount(o.groups)} ({percent(o.zeroVariance, o.groups)})
        </dd>
        <dt>In signal</dt>
        <dd>
          {formatCount(o.inSignal)} of {plural(o.rollouts, 'rollout')} ({percent(o.inSignal, o.rollouts)})
        </dd>
        <dt>Counted</dt>
        <dd title="In the signal with a numeric reward: these set each group's mean and std">{formatCount(counted)}</dd>
      </dl>
      <figure className="gsummary__hist" aria-label="Distribution of group means">
        <figcaption>Group means: how many groups per mean reward</figcaption>
        {bins.length === 0 ? (
          <p className="faint">No group has a mean.</p>
        ) : (
          <ResponsiveContainer width="100%" height={110}>
            <BarChart data={bins} margin={{ top: 4, right: 4, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <XAxis
                type="number"
                dataKey="mid"
                domain={single ? [lo - 0.5, lo + 0.5] : [lo, hi]}
                ticks={ticks}
                allowDataOverflow
                tickFormatter={(v: number) => (single ? formatReward(v) : v.toFixed(decimals))}
                tick={{ fontSize: 10, fill: '#5a6470' }}
                height={18}
              />
              <YAxis domain={[0, most]} ticks={[0, most]} width={26} tick={{ fontSize: 10, fill: '#5a6470' }} />
              <Tooltip
                isAnimationActive={false}
                cursor={{ fill: '#eceff3' }}
                content={(p: TooltipContentProps) => <HistTooltip payload={p.payload} active={p.active} />}
              />
              <Bar dataKey="count" fill="#0a66c2" isAnimationActive={false} barSize={single ? 24 : undefined} />
            </BarChart>
          </ResponsiveContainer>
        )}
      </figure>
      <div className="gsummary__codes">
        <h3>Group findings</h3>
        <ul>
          {codeCounts.map(({ code, groups }) => (
            <li key={code}>
              <button
                type="button"
                className="gsummary__code"
                aria-pressed={activeCode === code}
                disabled={groups === 0 && activeCode !== code}
                title={`${FINDING_INFO[code].title}. Show only these groups`}
                onClick={() => onCode(activeCode === code ? null : code)}
              >
                <span className={groups > 0 ? 'gbadge' : 'gbadge gbadge--none'}>{GROUP_BADGES[code] ?? code}</span>
                <span className={groups > 0 ? 'count--warning' : 'faint'}>{plural(groups, 'group')}</span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/**
 * Means that differ only by float rounding (equal rewards summed in another order) would spread over bins
 * too narrow to label; they are one value, so they get one bar.
 */
function histogramBins(bins: GroupOverview['meanHistogram']): GroupOverview['meanHistogram'] {
  const first = bins[0];
  const last = bins.at(-1);
  if (!first || !last || last.to - first.from > 1e-9 * Math.max(1, Math.abs(first.from))) return bins;
  return [{ from: first.from, to: first.from, count: bins.reduce((n, b) => n + b.count, 0) }];
}

function HistTooltip({ payload, active }: { payload: TooltipContentProps['payload']; active: boolean }) {
  const bin: { label: string; count: number } | undefined = payload?.[0]?.payload;
  if (!active || !bin) return null;
  return (
    <div className="gtip">
      mean {bin.label}: {plural(bin.count, 'group')}
    </div>
  );
}
