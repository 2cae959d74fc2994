import { type AgreeDocument, headline, NOTES, pairName } from './cells';
import { type AgreeTables, agreeTables, type Cell, type Table } from './tables';

/** Markup made by `html`: the only thing inserted unescaped. */
class Markup {
  constructor(readonly text: string) {}
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/**
 * A template that escapes every value put into it (task ids, reviewer names and commands are untrusted),
 * except markup it made itself; arrays are joined.
 */
function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  const part = (v: unknown): string =>
    v instanceof Markup ? v.text : Array.isArray(v) ? v.map(part).join('') : escapeHtml(String(v ?? ''));
  return new Markup(strings.reduce((out, s, i) => out + s + (i < values.length ? part(values[i]) : ''), ''));
}

const STYLE = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Liberation Sans", sans-serif; color: #1d232b; margin: 2rem auto; max-width: 1100px; padding: 0 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .3rem; } h2 { font-size: 1.15rem; margin: 2rem 0 .6rem; border-bottom: 1px solid #d6dbe1; padding-bottom: .2rem; }
h3 { font-size: .95rem; margin: 0 0 .4rem; overflow-wrap: anywhere; }
p.lead { color: #4a5561; margin: 0 0 1rem; }
table { border-collapse: collapse; margin: .2rem 0; }
th, td { border: 1px solid #d6dbe1; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #f2f4f7; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.src { font-family: ui-monospace, "Liberation Mono", monospace; font-size: 12px; overflow-wrap: anywhere; max-width: 28rem; }
td.undefined { color: #8a5a00; }
ul.notes { color: #4a5561; font-size: 12.5px; padding-left: 1.2rem; }
tr.next-task td { border-top: 2px solid #9aa5b1; }
.matrices { display: flex; flex-wrap: wrap; gap: 1.2rem 2rem; }
.matrix { min-width: 14rem; }
.matrix td.agree { background: #e6f4ea; }
.matrix td.differ { background: #fdecea; font-weight: 600; }
.matrix th.corner { font-weight: 400; color: #4a5561; font-size: 12px; }
.matrix p.differ { color: #4a5561; font-size: 12px; margin: .3rem 0 0; max-width: 22rem; overflow-wrap: anywhere; }
.matrix p.axes { color: #4a5561; font-size: 12px; margin: 0 0 .3rem; }
`;

/** A cell's class: counts are `num`, and a mark is shown by a class of its own (the style above). */
const MARK_CLASS: Record<NonNullable<Cell['mark']>, string> = {
  label: '',
  command: 'src',
  undefined: 'undefined',
  agree: 'agree',
  differ: 'differ',
};

function cell(c: Cell, count: boolean): Markup {
  if (c.mark === 'label') return html`<th>${c.text}</th>`;
  const classes = [count ? 'num' : '', c.mark ? MARK_CLASS[c.mark] : ''].filter((x) => x !== '').join(' ');
  return classes === '' ? html`<td>${c.text}</td>` : html`<td class="${classes}">${c.text}</td>`;
}

/** A table; `corner` replaces the first column's head; a row that starts a new group has a rule above it. */
function table(t: Table, corner?: Markup): Markup {
  const count = t.columns.map((c) => c.kind !== 'text');
  const head = t.columns.map((c, i) =>
    i === 0 && corner ? corner : count[i] ? html`<th class="num">${c.head}</th>` : html`<th>${c.head}</th>`,
  );
  const rows = t.rows.map((r, i) => {
    const cells = r.cells.map((c, j) => cell(c, count[j] ?? false));
    const next = r.group !== undefined && i > 0 && t.rows[i - 1]?.group !== r.group;
    return next ? html`<tr class="next-task">${cells}</tr>` : html`<tr>${cells}</tr>`;
  });
  return html`<table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
}

function pairsSection(t: AgreeTables): Markup {
  if (t.pairs === null) return html`<p>One rater only: no pairs. Add --regrade DIR or --reviews FILE.</p>`;
  return html`${table(t.pairs)}
<ul class="notes">${NOTES.map((n) => html`<li>${n}</li>`)}</ul>`;
}

function matrix({ pair: p, table: counts, differ }: AgreeTables['matrices'][number]): Markup {
  if (counts === null) return html`<div class="matrix"><h3>${pairName(p)}</h3><p>No rollout labelled by both.</p></div>`;
  return html`<div class="matrix"><h3>${pairName(p)}</h3><p class="axes">rows ↓ ${p.a} · columns → ${p.b}</p>
${table(counts, html`<th class="corner">↓ · →</th>`)}${differ === null ? '' : html`<p class="differ">${differ}</p>`}</div>`;
}

/**
 * The report as one self-contained HTML page (no script; a Content-Security-Policy that allows none, so
 * even a value that escaped escaping could not run).
 */
export function htmlReport(d: AgreeDocument): string {
  const t = agreeTables(d);
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agreement</title><style>${new Markup(STYLE)}</style></head>
<body>
<h1>Agreement</h1>
<p class="lead">${headline(d)}</p>
<h2>Raters</h2>
${table(t.raters)}
<h2>Pairs</h2>
${pairsSection(t)}
${t.tasks === null ? '' : html`<h2>Confusion matrices</h2><div class="matrices">${t.matrices.map(matrix)}</div><h2>Per task</h2>${table(t.tasks)}`}
</body></html>
`;
  return page.text;
}
