import { type AgreementReport, formatCount, type PairAgreement, type PairStats, plural } from '../../analysis';

/** What was read, for the report's first lines. */
interface ReportInputs {
  rollouts: number;
  files: number;
  regrades: readonly string[];
  reviews: readonly string[];
}

/** The report: what was read, and the agreement computed from it (the `--format json` document). */
export interface AgreeDocument extends AgreementReport {
  inputs: ReportInputs;
}

/*
 * The report's cells as plain text, put into tables by tables.ts and shared by the Markdown and HTML
 * renderers; each renderer escapes them for its own syntax (task ids, reviewer names and commands come
 * from files and are untrusted).
 */

export const pairName = (p: Pick<PairAgreement, 'a' | 'b'>) => `${p.a} × ${p.b}`;

export const percent = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

export const kappaText = (s: PairStats) => (s.n === 0 ? '–' : s.kappa === null ? 'undefined' : s.kappa.toFixed(3));

export function intervalText(s: PairStats): string {
  if (s.interval === null) return '–';
  const [lo, hi] = s.interval;
  return `[${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
}

export const excludedText = (excluded: readonly [string, number][]) =>
  excluded.length === 0 ? 'none' : excluded.map(([why, n]) => `${why} ${formatCount(n)}`).join(', ');

export function sourceText(r: AgreementReport['raters'][number]): string {
  if (r.kind === 'grader') return 'grading.verdict of the records';
  if (r.kind === 'regrader') return r.source;
  return 'reviews';
}

export const onlyText = (p: PairAgreement) => `${formatCount(p.onlyA)} / ${formatCount(p.onlyB)}`;

export function headline(d: AgreeDocument): string {
  const { inputs, bootstrap } = d;
  return (
    `${plural(inputs.rollouts, 'rollout')} from ${plural(inputs.files, 'file')}; ` +
    `${plural(inputs.regrades.length, 'regrade')}; ${plural(inputs.reviews.length, 'reviews file')}. ` +
    `Cohen's kappa with a ${Math.round(bootstrap.level * 100)}% percentile bootstrap interval over rollouts ` +
    `(${formatCount(bootstrap.resamples)} resamples, seed ${bootstrap.seed}).`
  );
}

/** Said under the pairs table: what n, the interval and "undefined" mean. */
export const NOTES = [
  'n: rollouts both raters labelled. Only one labelled: rollouts the first / the second labelled and the other did not.',
  'kappa = (p_o - p_e) / (1 - p_e); undefined when p_e = 1 (both raters gave every rollout one and the same label).',
  "A reviewer's label: agree = the grader's verdict, disagree = its opposite (pass/fail), unsure = none.",
  'Resamples whose kappa is undefined are left out of the interval. docs/agreement.md has the formulas.',
];

/** Every pair's per-task numbers, by task name, the pairs in report order within a task. */
export function byTask(d: AgreementReport): { task: string; pair: PairAgreement; stats: PairStats }[] {
  const rows = d.pairs.flatMap((pair) => pair.tasks.map(({ task, stats }) => ({ task, pair, stats })));
  return rows.sort((x, y) => (x.task < y.task ? -1 : x.task > y.task ? 1 : 0));
}

/** Disagreements listed under a matrix; `--format json` has them all. */
const DISAGREEMENTS_SHOWN = 10;

/** "differ on: r-1#a-1 (fail / pass), ..." for the first DISAGREEMENTS_SHOWN; null when the pair never differs. */
export function disagreementsText(p: PairAgreement): string | null {
  if (p.disagreements.length === 0) return null;
  const shown = p.disagreements.slice(0, DISAGREEMENTS_SHOWN).map((d) => `${d.key} (${d.a} / ${d.b})`);
  const more = p.disagreements.length - shown.length;
  return `differ on: ${shown.join(', ')}${more > 0 ? `, and ${formatCount(more)} more (--format json lists them all)` : ''}`;
}
