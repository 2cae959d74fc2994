import { parseArgs } from 'node:util';
import { FailureModes, type FailureModesResult, summarizeRollout } from '../analysis';
import type { ReadOptions } from '../format';
import { readPath } from './readFile';
import { READ_FLAGS, readOptionsOf } from './readOptions';

/** Modes printed in the text table; `--json` has them all. */
const TABLE_MODES = 20;
/** Step columns in the table: more steps are binned into this many (thirds of a run read at a glance). */
const TABLE_BINS = 6;

/**
 * `trajscope modes FILE_OR_DIR... [--json] [read options]`: the failure modes of the rollouts read
 * (docs/failure-modes.md), ranked by count, with their share per training step. Exit 0, or 2 when a path
 * cannot be read, is of no format Trajscope reads, or an option is wrong.
 */
export async function runModes(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  let paths: string[];
  let format: ReadOptions;
  try {
    ({ values, positionals: paths } = parse(argv));
    format = await readOptionsOf(values);
  } catch (e) {
    process.stderr.write(`trajscope modes: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  if (paths.length === 0) {
    process.stderr.write('trajscope modes: name at least one file or run directory\n');
    return 2;
  }
  const result = await failureModesOf(paths, format);
  if (result === null) return 2;
  process.stdout.write(values.json ? `${JSON.stringify(result, null, 2)}\n` : formatModes(result));
  return 0;
}

/** Reads every path into a `FailureModes`; null (said on stderr) when one cannot be read. */
async function failureModesOf(paths: readonly string[], format: ReadOptions = {}): Promise<FailureModesResult | null> {
  const modes = new FailureModes();
  for (const path of paths) {
    try {
      const { unsupported } = await readPath(
        path,
        (r) => {
          if (r.kind === 'rollout') modes.add(r.value.record, summarizeRollout(r.value));
        },
        format,
      );
      if (unsupported !== null) {
        process.stderr.write(`trajscope modes: ${path}: ${unsupported}\n`);
        return null;
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      process.stderr.write(`trajscope modes: cannot read ${path}: ${err.code === 'ENOENT' ? 'no such file' : err.message}\n`);
      return null;
    }
  }
  return modes.result();
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** The text table: one row per mode, its count, overall share and share in each bin of training steps. */
function formatModes(result: FailureModesResult): string {
  const head = `${result.failures} of ${result.rollouts} rollouts failed or were excluded; ${result.modes.length} failure modes\n`;
  const first = result.modes[0];
  if (!first) return head;
  const bins = binsOf(first.steps.map((s) => s.step));
  const columns = ['count', 'share', ...bins.map((b) => b.label)];
  const rows = result.modes.slice(0, TABLE_MODES).map((m) => {
    const perBin = bins.map((b) => {
      const at = m.steps.filter((s) => b.steps.has(s.step));
      const rollouts = at.reduce((n, s) => n + s.rollouts, 0);
      return rollouts === 0 ? '-' : percent(at.reduce((n, s) => n + s.count, 0) / rollouts);
    });
    return { cells: [String(m.count), percent(m.share), ...perBin], name: m.name };
  });
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r.cells[i] ?? '').length)));
  const line = (cells: readonly string[], name: string) => `${cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ')}  ${name}\n`;
  const more = result.modes.length > TABLE_MODES ? `... ${result.modes.length - TABLE_MODES} more (--json lists them all)\n` : '';
  return `${head}\n${line(columns, 'mode (share by training step)')}${rows.map((r) => line(r.cells, r.name)).join('')}${more}`;
}

interface Bin {
  label: string;
  steps: Set<number | null>;
}

/** Steps in at most TABLE_BINS consecutive bins (step null, if any, its own last column). */
function binsOf(steps: readonly (number | null)[]): Bin[] {
  const numbered = steps.filter((s): s is number => s !== null);
  const size = Math.max(1, Math.ceil(numbered.length / TABLE_BINS));
  const bins: Bin[] = [];
  for (let i = 0; i < numbered.length; i += size) {
    const part = numbered.slice(i, i + size);
    const [lo, hi] = [part[0], part[part.length - 1]];
    bins.push({ label: lo === hi ? `s${lo}` : `s${lo}-${hi}`, steps: new Set(part) });
  }
  if (steps.includes(null)) bins.push({ label: 'no step', steps: new Set([null]) });
  return bins;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, ...READ_FLAGS },
  });
}
