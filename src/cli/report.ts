import {
  DEFAULT_IS_CAP,
  FINDING_INFO,
  type FindingCode,
  formatStatistic,
  type GroupSummary,
  type LintReport,
  type Mismatch,
  plural,
  poolMismatch,
  terminationInfo,
} from '../analysis';

const WORST_GROUPS = 5;
const WORST_MISMATCH = 5;

function count<T>(items: T[], key: (t: T) => string): [string, number][] {
  const m = new Map<string, number>();
  for (const i of items) m.set(key(i), (m.get(key(i)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** How much a group needs a look: findings first, then how little of it is usable signal. */
function groupTrouble(g: GroupSummary): number {
  const unusable = g.rollouts === 0 ? 0 : 1 - g.in_signal / g.rollouts;
  return g.findings.length * 10 + unusable;
}

/** Where a rollout is: file:line, then its id unless the id is that location already (sources without ids). */
function rolloutWhere(r: { file: string; line: number; rollout_id: string }): string {
  const at = `${r.file}:${r.line}`;
  return r.rollout_id === at ? at : `${at} ${r.rollout_id}`;
}

/** The human-readable lint summary: counts by termination, findings by code, worst groups. */
export function formatReport(report: LintReport, { color, isCap = DEFAULT_IS_CAP }: { color: boolean; isCap?: number }): string {
  const paint = (code: string, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const out: string[] = [];
  const { summary } = report;
  out.push(
    `${plural(summary.lines, 'line')}, ${plural(summary.rollouts, 'rollout')}, ${paint(summary.errors ? '31' : '32', plural(summary.errors, 'error'))}, ${paint(summary.warnings ? '33' : '32', plural(summary.warnings, 'warning'))}`,
  );

  out.push('', 'terminations:');
  for (const [t, n] of count(report.rollouts, (r) => r.termination)) {
    const counted = t === 'unknown' && report.rollouts.some((r) => r.counted_as_finished);
    const meaning = counted
      ? 'no status recorded: counted as finished (--unknown-as-finished)'
      : t === 'unknown'
        ? `${terminationInfo(t).meaning}; no status recorded, --unknown-as-finished counts these as finished`
        : terminationInfo(t).meaning;
    out.push(`  ${t.padEnd(18)} ${String(n).padStart(6)}  ${meaning}`);
  }

  const all = [
    ...report.parse_errors.map((e) => ({ code: e.code as FindingCode, where: `${e.file}:${e.line}`, message: e.message })),
    ...report.rollouts.flatMap((r) => r.findings.map((f) => ({ code: f.code, where: rolloutWhere(r), message: f.message }))),
    ...report.groups.flatMap((g) => g.findings.map((f) => ({ code: f.code, where: `group ${g.group_id}`, message: f.message }))),
  ];
  if (all.length > 0) {
    out.push('', 'findings:');
    for (const [code, n] of count(all, (f) => f.code)) {
      const info = FINDING_INFO[code as FindingCode];
      const first = all.find((f) => f.code === code);
      out.push(`  ${paint(info.severity === 'error' ? '31' : '33', code.padEnd(24))} ${String(n).padStart(6)}  ${info.title}`);
      if (first) out.push(`      e.g. ${first.where}: ${first.message}`);
    }
  }

  const troubled = [...report.groups].filter((g) => groupTrouble(g) > 0).sort((a, b) => groupTrouble(b) - groupTrouble(a));
  const worst = troubled.slice(0, WORST_GROUPS);
  if (worst.length > 0) {
    out.push(
      '',
      troubled.length > worst.length
        ? `groups needing a look (the ${worst.length} worst of ${troubled.length}):`
        : 'groups needing a look:',
    );
    for (const g of worst) {
      const stats = g.mean === null ? 'no rewards in signal' : `mean ${g.mean.toFixed(3)}, std ${g.std === null ? '—' : g.std.toFixed(3)}`;
      const codes = g.findings.map((f) => f.code).join(', ');
      out.push(`  ${g.group_id}: ${g.in_signal}/${g.rollouts} in signal, ${stats}${codes ? `; ${codes}` : ''}`);
    }
    if (troubled.length > worst.length)
      out.push(`  … and ${plural(troubled.length - worst.length, 'more group')} (--json lists every group)`);
  }
  out.push(...mismatchLines(report, isCap));
  out.push('');
  return out.join('\n');
}

const num = (x: number | null) => formatStatistic(x);

function mismatchWords(m: Mismatch): string {
  return `mean |d| ${num(m.mean_abs)}, max |d| ${num(m.max_abs)}, ratio mean ${num(m.ratio_mean)}, clipped ${num(m.ratio_clip_frac)}, k3 ${num(m.kl_k3)}`;
}

/** §10's totals over the run and the rollouts whose trainer disagrees most (by max |d|). */
function mismatchLines(report: LintReport, isCap: number): string[] {
  const withTraining = report.rollouts.filter((r) => r.mismatch !== undefined);
  if (withTraining.length === 0) return [];
  const totals = poolMismatch(withTraining.map((r) => r.mismatch as Mismatch));
  const out = [
    '',
    `training-inference mismatch (§10, C = ${isCap}): ${totals.compared} of ${plural(totals.rollouts, 'rollout')} with a training record compared, ${plural(totals.stats.n, 'position')}`,
  ];
  if (totals.stats.n === 0) return [...out, '  no position had both log-probabilities (nothing to compare)'];
  out.push(`  ${mismatchWords(totals.stats)}`);
  const worst = withTraining
    .filter((r) => (r.mismatch?.max_abs ?? 0) > 0)
    .sort((a, b) => (b.mismatch?.max_abs ?? 0) - (a.mismatch?.max_abs ?? 0))
    .slice(0, WORST_MISMATCH);
  if (worst.length > 0) out.push('  largest max |d|:');
  for (const r of worst) out.push(`    ${r.file}:${r.line} ${r.rollout_id}: n ${r.mismatch?.n}, ${mismatchWords(r.mismatch as Mismatch)}`);
  return out;
}
