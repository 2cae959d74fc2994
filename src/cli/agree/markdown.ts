import { type AgreeDocument, headline, NOTES, pairName } from './cells';
import { agreeTables, type Cell, type Table } from './tables';

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

/** A cell's text, escaped when it came from a file (a text column); a row's label in bold. */
function cellText(cell: Cell, fromFile: boolean): string {
  const t = fromFile ? mdText(cell.text) : cell.text;
  return cell.mark === 'label' ? `**${t}**` : t;
}

/** A table, counts right-aligned; `firstHead`, Markdown already, replaces the first column's head. */
function table(t: Table, firstHead?: string): string {
  const head = t.columns.map((c, i) => (i === 0 && firstHead !== undefined ? firstHead : mdText(c.head)));
  const align = t.columns.map((c) => (c.kind === 'count' ? '--:' : '---'));
  const rows = t.rows.map((r) => r.cells.map((cell, i) => cellText(cell, (t.columns[i]?.kind ?? 'text') === 'text')));
  return [row(head), row(align), ...rows.map(row)].join('\n');
}

/** The report as Markdown: raters, the pairs overall, each pair's confusion matrix, then every pair per task. */
export function markdownReport(d: AgreeDocument): string {
  const t = agreeTables(d);
  const out = ['# Agreement', '', mdText(headline(d)), '', '## Raters', '', table(t.raters), '', '## Pairs', ''];
  if (t.pairs === null) out.push('One rater only: no pairs. Add --regrade DIR or --reviews FILE.');
  else out.push(table(t.pairs), '', ...NOTES.map((n) => `- ${mdText(n)}`));
  for (const { pair: p, table: matrix, differ } of t.matrices) {
    out.push('', `### ${mdText(pairName(p))}`, '');
    if (matrix === null) {
      out.push('No rollout labelled by both.');
      continue;
    }
    out.push(`Rows: ${mdText(p.a)}; columns: ${mdText(p.b)}.`, '', table(matrix, `${mdText(p.a)} ↓ ${mdText(p.b)} →`));
    if (differ !== null) out.push('', mdText(differ));
  }
  if (t.tasks !== null) out.push('', '## Per task', '', table(t.tasks));
  return `${out.join('\n')}\n`;
}
