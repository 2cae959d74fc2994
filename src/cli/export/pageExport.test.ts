import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { qwenTokenTable } from '../../../scripts/qwenTokenTablePlugin.ts';
import {
  exportSelection,
  matchRow,
  type PageFormat,
  parseQuery,
  readTokenTable,
  rolloutSelector,
  selectedRollouts,
  tokenTextLoading,
} from '../../analysis';
import { type Dataset, fileSource, type LoadSource, loadedDataset, sourceRecordReader } from '../../load';
import { lintSources } from '../../load/lintSources';
import { runExport } from '../export';

/*
 * The page's Export and `trajscope export` give the same bytes for the same selection of the committed
 * demo: the page's path (the rows and records the page loads, its token table, exportSelection) against
 * the CLI reading the file itself (its tokenizer package, its file sinks).
 */
const DEMO = fileURLToPath(new URL('../../../public/demo/rollouts.jsonl', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trajscope-page-export-'));
// A run directory of the one file: the CLI names it `rollouts.jsonl`, as the page names the demo.
const runDir = join(dir, 'run');
mkdirSync(runDir);
copyFileSync(DEMO, join(runDir, 'rollouts.jsonl'));

let dataset: Dataset;
let source: LoadSource;
const table = readTokenTable(qwenTokenTable().slice().buffer);

beforeAll(async () => {
  const bytes = readFileSync(DEMO);
  source = fileSource('demo', new File([bytes], 'rollouts.jsonl'));
  const result = await lintSources([source], { yieldToUi: false });
  dataset = loadedDataset(result);
});

async function cliExport(where: string, as: PageFormat): Promise<string> {
  const out = join(dir, `${as}-${where.replace(/\W+/g, '_')}.jsonl`);
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    expect(await runExport([runDir, '--where', where, '--as', as, '--out', out])).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return readFileSync(out, 'utf8');
}

/** The search page's selection: row clauses on the rows; content clauses on the records, as its scan. */
async function pageExport(where: string, format: PageFormat): Promise<{ text: string; selected: number }> {
  const query = parseQuery(where);
  const selector = rolloutSelector(query);
  const indices: number[] = [];
  for (const [i, row] of dataset.rows.entries()) {
    if (!matchRow(query.clauses, row)) continue;
    const record = await dataset.rollout(dataset.keys[i] ?? '');
    if (record && selector.matches(row, record)) indices.push(i);
  }
  const selected = selectedRollouts(dataset.rows, dataset.keys, indices);
  // The page's files are read again for the records (the load keeps them compact), as ExportDialog does.
  const reader = sourceRecordReader(
    [source],
    selected.map((s) => s.summary),
  );
  const done = await exportSelection({
    format,
    where,
    selected,
    read: ({ summary }) => reader.read(summary),
    tokenText: tokenTextLoading(async () => table),
    sliceMs: 5,
  });
  return { text: done.chunks.join(''), selected: selected.length };
}

/** Where two texts part, with a little of each there (a whole export printed says nothing). */
function firstDifference(a: string, b: string): string | null {
  if (a === b) return null;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `at ${i} of ${a.length} / ${b.length}: ${JSON.stringify(a.slice(Math.max(0, i - 60), i + 60))} vs ${JSON.stringify(b.slice(Math.max(0, i - 60), i + 60))}`;
}

describe('the page’s export and the CLI’s', () => {
  for (const where of ['term:finished', 'tool:edit -policy:v-2'])
    for (const format of ['v1', 'sft', 'dpo'] as const)
      it(`write the same bytes for --where '${where}' --as ${format}`, async () => {
        const [cli, page] = await Promise.all([cliExport(where, format), pageExport(where, format)]);
        expect(page.selected).toBeGreaterThan(0);
        const lines = page.text.split('\n').filter(Boolean);
        // Something is written, so equal bytes say something.
        expect(lines.length).toBeGreaterThan(0);
        if (format === 'v1') expect(lines.length).toBe(page.selected);
        expect(firstDifference(page.text, cli)).toBe(null);
      });
});
