import { formatCount, type PairAgreement } from '../../analysis';
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

function pairsTable(d: AgreeDocument): Markup {
  if (d.pairs.length === 0) return html`<p>One rater only: no pairs. Add --regrade DIR or --reviews FILE.</p>`;
  const rows = d.pairs.map((p) => {
    const s = p.overall;
    return html`<tr><td>${pairName(p)}</td><td class="num">${formatCount(s.n)}</td><td class="num">${percent(s.agreement)}</td><td class="num${s.kappaUndefined ? ' undefined' : ''}">${kappaText(s)}</td><td class="num">${intervalText(s)}</td><td class="num">${onlyText(p)}</td></tr>`;
  });
  return html`<table><thead><tr><th>pair</th><th class="num">n</th><th class="num">agreement</th><th class="num">kappa</th><th class="num">${Math.round(d.bootstrap.level * 100)}% interval</th><th class="num">only one labelled</th></tr></thead><tbody>${rows}</tbody></table>
<ul class="notes">${NOTES.map((n) => html`<li>${n}</li>`)}</ul>`;
}

function matrix(p: PairAgreement): Markup {
  const s = p.overall;
  if (s.n === 0) return html`<div class="matrix"><h3>${pairName(p)}</h3><p>No rollout labelled by both.</p></div>`;
  const head = s.labels.map((l) => html`<th class="num">${l}</th>`);
  const differ = disagreementsText(p);
  const rows = s.labels.map(
    (l, i) =>
      html`<tr><th>${l}</th>${(s.counts[i] ?? []).map((c, j) => html`<td class="num ${i === j ? 'agree' : c > 0 ? 'differ' : ''}">${formatCount(c)}</td>`)}</tr>`,
  );
  return html`<div class="matrix"><h3>${pairName(p)}</h3><p class="axes">rows ↓ ${p.a} · columns → ${p.b}</p>
<table><thead><tr><th class="corner">↓ · →</th>${head}</tr></thead><tbody>${rows}</tbody></table>${differ === null ? '' : html`<p class="differ">${differ}</p>`}</div>`;
}

function tasksTable(d: AgreeDocument): Markup {
  const rows = byTask(d).map(
    ({ task, pair, stats }, i, all) =>
      html`<tr class="${i > 0 && all[i - 1]?.task !== task ? 'next-task' : ''}"><td>${task}</td><td>${pairName(pair)}</td><td class="num">${formatCount(stats.n)}</td><td class="num">${percent(stats.agreement)}</td><td class="num${stats.kappaUndefined ? ' undefined' : ''}">${kappaText(stats)}</td><td class="num">${intervalText(stats)}</td></tr>`,
  );
  return html`<table><thead><tr><th>task</th><th>pair</th><th class="num">n</th><th class="num">agreement</th><th class="num">kappa</th><th class="num">${Math.round(d.bootstrap.level * 100)}% interval</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * The report as one self-contained HTML page (no script; a Content-Security-Policy that allows none, so
 * even a value that escaped escaping could not run).
 */
export function htmlReport(d: AgreeDocument): string {
  const raters = d.raters.map(
    (r) =>
      html`<tr><td>${r.id}</td><td class="${r.kind === 'regrader' ? 'src' : ''}">${sourceText(r)}</td><td class="num">${formatCount(r.labelled)}</td><td>${excludedText(r.excluded)}</td></tr>`,
  );
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Agreement</title><style>${new Markup(STYLE)}</style></head>
<body>
<h1>Agreement</h1>
<p class="lead">${headline(d)}</p>
<h2>Raters</h2>
<table><thead><tr><th>rater</th><th>source</th><th class="num">labelled</th><th>no label</th></tr></thead><tbody>${raters}</tbody></table>
<h2>Pairs</h2>
${pairsTable(d)}
${d.pairs.length > 0 ? html`<h2>Confusion matrices</h2><div class="matrices">${d.pairs.map(matrix)}</div><h2>Per task</h2>${tasksTable(d)}` : ''}
</body></html>
`;
  return page.text;
}
