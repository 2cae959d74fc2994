import { formatCount } from '../../analysis';
import {
  type AgreeDocument,
  byTask,
  disagreementsText,
  excludedText,
  headline,
  intervalText,
  kappaText,
  NOTES,
  onlyText,
  pairName,
  percent,
  sourceText,
} from './cells';

/**
 * Text as a Markdown table cell: HTML (which Markdown renders as is) becomes entities, the characters
 * that start Markdown syntax are escaped, `|` cannot end the cell and a line break cannot end the row.
 */
function mdText(text: string): string {
  return text
    .replace(/[\r\n]+/g, ' ')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
    .replace(/^[#+-]/, (c) => `\\${c}`);
}

const row = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
const table = (head: readonly string[], align: readonly ('l' | 'r')[], rows: readonly (readonly string[])[]) =>
  [row(head), row(align.map((a) => (a === 'r' ? '--:' : '---'))), ...rows.map(row)].join('\n');

/** The report as Markdown: raters, the pairs overall, each pair's confusion matrix, then every pair per task. */
export function markdownReport(d: AgreeDocument): string {
  const out = ['# Agreement', '', mdText(headline(d)), '', '## Raters', ''];
  out.push(
    table(
      ['rater', 'source', 'labelled', 'no label'],
      ['l', 'l', 'r', 'l'],
      d.raters.map((r) => [mdText(r.id), mdText(sourceText(r)), formatCount(r.labelled), mdText(excludedText(r.excluded))]),
    ),
  );
  out.push('', '## Pairs', '');
  if (d.pairs.length === 0) out.push('One rater only: no pairs. Add --regrade DIR or --reviews FILE.');
  else
    out.push(
      table(
        ['pair', 'n', 'agreement', 'kappa', '95% interval', 'only one labelled'],
        ['l', 'r', 'r', 'r', 'l', 'r'],
        d.pairs.map((p) => [
          mdText(pairName(p)),
          formatCount(p.overall.n),
          percent(p.overall.agreement),
          kappaText(p.overall),
          intervalText(p.overall),
          onlyText(p),
        ]),
      ),
      '',
      ...NOTES.map((n) => `- ${mdText(n)}`),
    );
  for (const p of d.pairs) {
    out.push('', `### ${mdText(pairName(p))}`, '');
    const s = p.overall;
    if (s.n === 0) {
      out.push('No rollout labelled by both.');
      continue;
    }
    out.push(`Rows: ${mdText(p.a)}; columns: ${mdText(p.b)}.`, '');
    out.push(
      table(
        [`${mdText(p.a)} ↓ ${mdText(p.b)} →`, ...s.labels.map(mdText)],
        ['l', ...s.labels.map(() => 'r' as const)],
        s.labels.map((l, i) => [`**${mdText(l)}**`, ...(s.counts[i] ?? []).map(formatCount)]),
      ),
    );
    const differ = disagreementsText(p);
    if (differ !== null) out.push('', mdText(differ));
  }
  if (d.pairs.length > 0) {
    out.push('', '## Per task', '');
    out.push(
      table(
        ['task', 'pair', 'n', 'agreement', 'kappa', '95% interval'],
        ['l', 'l', 'r', 'r', 'r', 'l'],
        byTask(d).map(({ task, pair, stats }) => [
          mdText(task),
          mdText(pairName(pair)),
          formatCount(stats.n),
          percent(stats.agreement),
          kappaText(stats),
          intervalText(stats),
        ]),
      ),
    );
  }
  return `${out.join('\n')}\n`;
}
