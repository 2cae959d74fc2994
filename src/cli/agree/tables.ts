import { formatCount, type PairAgreement, type PairStats } from '../../analysis';
import {
  type AgreeDocument,
  byTask,
  disagreementsText,
  excludedText,
  intervalText,
  kappaText,
  onlyText,
  pairName,
  percent,
  sourceText,
} from './cells';

/*
 * The one walk over an agreement report: its tables as rows of plain-text cells, which the Markdown and
 * HTML renderers only lay out and escape. A `text` column holds values from files (task ids, reviewer
 * names, commands, labels: untrusted); the other kinds hold numbers this command formatted.
 */

/** `count`: a number, right-aligned; `interval`: `[lo, hi]`, of numbers but laid out as text in Markdown. */
type ColumnKind = 'text' | 'count' | 'interval';

interface Column {
  head: string;
  kind: ColumnKind;
}

/**
 * What a renderer may show of a cell beyond its text: `label`, a row's heading (a matrix row's label);
 * `command`, a grader command; `undefined`, a kappa that is undefined; `agree` / `differ`, a matrix count
 * on or off the diagonal (off it and not zero).
 */
type CellMark = 'label' | 'command' | 'undefined' | 'agree' | 'differ';

export interface Cell {
  text: string;
  mark?: CellMark;
}

interface Row {
  cells: Cell[];
  /** Rows of one group (a task) follow each other; a renderer may mark where a new one starts. */
  group?: string;
}

export interface Table {
  columns: Column[];
  rows: Row[];
}

/** One pair's confusion matrix: rows the first rater's labels, columns the second's; null with no rollout both labelled. */
interface MatrixSection {
  pair: PairAgreement;
  /** Its first column is the row labels: its head is the renderer's to write. */
  table: Table | null;
  /** The first disagreements, or null when the raters never differ. */
  differ: string | null;
}

export interface AgreeTables {
  raters: Table;
  /** Null with one rater only: no pairs. */
  pairs: Table | null;
  matrices: MatrixSection[];
  /** Every pair per task; null with no pairs. */
  tasks: Table | null;
}

const text = (head: string): Column => ({ head, kind: 'text' });
const count = (head: string): Column => ({ head, kind: 'count' });

const kappaCell = (s: PairStats): Cell => ({ text: kappaText(s), ...(s.kappaUndefined ? { mark: 'undefined' as const } : {}) });

function matrixTable(p: PairAgreement): Table | null {
  const s = p.overall;
  if (s.n === 0) return null;
  return {
    columns: [text(''), ...s.labels.map(count)],
    rows: s.labels.map((label, i) => ({
      cells: [
        { text: label, mark: 'label' },
        ...(s.counts[i] ?? []).map((c, j): Cell => {
          const mark = i === j ? 'agree' : c > 0 ? 'differ' : undefined;
          return { text: formatCount(c), ...(mark ? { mark } : {}) };
        }),
      ],
    })),
  };
}

/** The report's tables: raters, the pairs overall, each pair's confusion matrix, then every pair per task. */
export function agreeTables(d: AgreeDocument): AgreeTables {
  const interval: Column = { head: `${Math.round(d.bootstrap.level * 100)}% interval`, kind: 'interval' };
  const raters: Table = {
    columns: [text('rater'), text('source'), count('labelled'), text('no label')],
    rows: d.raters.map((r) => ({
      cells: [
        { text: r.id },
        { text: sourceText(r), ...(r.kind === 'regrader' ? { mark: 'command' as const } : {}) },
        { text: formatCount(r.labelled) },
        { text: excludedText(r.excluded) },
      ],
    })),
  };
  if (d.pairs.length === 0) return { raters, pairs: null, matrices: [], tasks: null };
  const pairs: Table = {
    columns: [text('pair'), count('n'), count('agreement'), count('kappa'), interval, count('only one labelled')],
    rows: d.pairs.map((p) => ({
      cells: [
        { text: pairName(p) },
        { text: formatCount(p.overall.n) },
        { text: percent(p.overall.agreement) },
        kappaCell(p.overall),
        { text: intervalText(p.overall) },
        { text: onlyText(p) },
      ],
    })),
  };
  const tasks: Table = {
    columns: [text('task'), text('pair'), count('n'), count('agreement'), count('kappa'), interval],
    rows: byTask(d).map(({ task, pair, stats }) => ({
      group: task,
      cells: [
        { text: task },
        { text: pairName(pair) },
        { text: formatCount(stats.n) },
        { text: percent(stats.agreement) },
        kappaCell(stats),
        { text: intervalText(stats) },
      ],
    })),
  };
  const matrices = d.pairs.map((pair) => ({ pair, table: matrixTable(pair), differ: disagreementsText(pair) }));
  return { raters, pairs, matrices, tasks };
}
