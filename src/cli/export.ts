import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { closeSink, formatCount, parseQuery, plural, type Query, QueryError, rolloutSelector, summarizeRollout } from '../analysis';
import type { ReadOptions } from '../format';
import { type NotRead, notReadOf, RolloutKeyPass } from './export/keys';
import { KeysAsRead } from './export/keysAsRead';
import { claimNew, commit, discard, pendingPath } from './export/output';
import { dpoFileSink, parquetSink, type Sink, sftFileSink, v1FileSink } from './export/sinks';
import { readJsonlFile } from './readFile';
import { CHECK_FLAGS, type CheckOptions, checkOptionsOf, READ_FLAGS, readOptionsOf, scanRulesOf } from './readOptions';
import { type Input, listInputs } from './runIndex/inputs';
import { cliTokenText } from './tokenText';

const FORMATS = ['v1', 'sft', 'dpo', 'parquet'] as const;
type ExportFormat = (typeof FORMATS)[number];

const say = (text: string) => process.stderr.write(`trajscope export: ${text}\n`);

/**
 * `trajscope export RUN_OR_FILE... --where QUERY --as v1|sft|dpo|parquet --out FILE [read options] [check options]`:
 * the rollouts the search query chooses, as training data, each with its provenance. Exit 0 when written;
 * 2 when an option or the query is wrong or an input cannot be read (then nothing is written).
 */
export async function runExport(argv: string[]): Promise<number> {
  try {
    return await exportCommand(argv);
  } catch (e) {
    say(`internal error: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
}

async function exportCommand(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  let paths: string[];
  let read: ReadOptions;
  let checks: CheckOptions;
  try {
    ({ values, positionals: paths } = parse(argv));
    const rules = await scanRulesOf(values.rules);
    // With --rules, `--where code:W_SCAN` (or a rule's words) selects the scanners' hits.
    checks = { ...checkOptionsOf(values), ...(rules ? { rules } : {}) };
    read = await readOptionsOf(values);
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
    return 2;
  }
  const as = values.as;
  if (!isFormat(as)) return usage(`--as takes ${FORMATS.join(', ')}${as === undefined ? '' : `, not "${as}"`}`);
  if (values.out === undefined) return usage('name the output with --out FILE');
  if (paths.length === 0) return usage('name at least one run directory or trajectory file');
  if (paths.some((p) => p === '-' || p === '/dev/stdin'))
    return usage(
      'standard input cannot be exported: name the file (a duplicate id found late rewrites the output, and --as parquet reads the inputs twice)',
    );
  const where = values.where ?? '';
  let query: Query;
  try {
    query = parseQuery(where);
  } catch (e) {
    if (!(e instanceof QueryError)) throw e;
    say(`--where: ${e.message}\n  ${where}\n  ${' '.repeat(e.position)}^`);
    return 2;
  }
  const out = resolve(values.out);
  if (existsSync(out) && statSync(out).isDirectory()) return usage(`--out ${values.out} is a directory; name a file`);
  let inputs: Input[];
  try {
    // The output may lie in the run directory (and an older export of the same name with it): never an input.
    inputs = (await listInputs(paths, out)).inputs.filter((i) => i.path !== out);
  } catch (e) {
    say(e instanceof Error ? e.message : String(e));
    return 2;
  }
  if (inputs.length === 0) return usage('the only input named is the output');

  // Parquet rows are written per file as Parquet: a key cannot be put right in them afterwards, so that sink
  // reads the inputs once for the keys first (RolloutKeyPass); the others form them as they read (KeysAsRead).
  const keyPass = as === 'parquet' ? await RolloutKeyPass.read(inputs, read) : null;
  if (keyPass && keyPass.notRead.length > 0) return nothingWritten(keyPass.notRead);
  const asRead = keyPass ? null : new KeysAsRead();
  const notRead: NotRead[] = [];

  const pending = pendingPath(out);
  const rowChecks = { ...checks, tokenText: cliTokenText };
  const selector = rolloutSelector(query);
  const summarizes = query.clauses.length > 0 || as === 'sft' || as === 'dpo';
  const counts = { rollouts: 0, matched: 0, badLines: 0, appended: 0 };
  let sink: Sink;
  // Only a pending file this export made is removed on failure: a planted one is refused and left alone.
  let claimed = false;
  try {
    claimNew(pending);
    claimed = true;
    sink = sinkFor(as, pending, where, rowChecks);
    for (const input of inputs) {
      const hooks = sink.file?.(input.file);
      const known = keyPass ? keyPass.count(input.file) : Number.POSITIVE_INFINITY;
      let n = 0;
      const take = (r: Parameters<Parameters<typeof readJsonlFile>[1]>[0]): void => {
        if (r.kind === 'error') {
          counts.badLines++;
          return;
        }
        if (n >= known) {
          counts.appended++;
          return;
        }
        const loaded = r.value;
        const rollout_key = keyPass
          ? keyPass.keyOf(input.file, n++, loaded.record, loaded.line)
          : (asRead as KeysAsRead).keyOf(input.file, loaded.record, loaded.line);
        counts.rollouts++;
        // v1 and parquet of every rollout read no summary: each rollout's lint is skipped then (npm run bench:
        // export v1 of 100,000 rollouts 1.22 -> 1.12 x convert).
        const summary = summarizes ? summarizeRollout(loaded, rowChecks) : null;
        if (summary !== null && !selector.matches(summary, loaded.record)) return;
        counts.matched++;
        sink.take({ record: loaded.record, loaded, summary, provenance: { file: input.file, line: loaded.line, rollout_key, where } });
      };
      let file: Awaited<ReturnType<typeof readJsonlFile>>;
      // A failure of the export's own (a write, a sink) is not the input's: it must not read as one.
      let ours: { error: unknown } | null = null;
      try {
        file = await readJsonlFile(
          input.path,
          (r) => {
            try {
              take(r);
            } catch (error) {
              ours = { error };
              throw error;
            }
          },
          read,
          { name: input.file, ...(hooks ? { onBytes: hooks.onBytes } : {}) },
        );
      } catch (e) {
        // Read before for the keys, a file that fails now changed meanwhile: that is the outer catch's.
        if (keyPass || ours !== null) throw e;
        notRead.push(notReadOf(input.file, e));
        continue;
      }
      if (!keyPass && file.unsupported !== null) {
        notRead.push({ file: input.file, message: file.unsupported });
        continue;
      }
      hooks?.end(file.format);
    }
    if (notRead.length > 0) {
      discard(pending);
      return nothingWritten(notRead);
    }
    closeSink(sink);
    await asRead?.fixUp(pending);
    commit(pending, out);
  } catch (e) {
    // An output that cannot be written, a file rewritten between the two reads: no half-written export is left.
    if (claimed) discard(pending);
    say(`${e instanceof Error ? e.message : String(e)}; nothing written`);
    return 2;
  }
  say(summaryLine(as, values.out, counts, sink));
  return 0;
}

/** Inputs that could not be read, or are of no format Trajscope reads: said, and nothing is written (exit 2). */
function nothingWritten(notRead: readonly NotRead[]): number {
  for (const n of notRead) say(`${n.file}: ${n.message}`);
  say('nothing written');
  return 2;
}

function sinkFor(as: ExportFormat, path: string, where: string, checks: Parameters<typeof parquetSink>[1]): Sink {
  if (as === 'sft') return sftFileSink(path);
  if (as === 'dpo') return dpoFileSink(path, where);
  if (as === 'parquet') return parquetSink(path, checks);
  return v1FileSink(path);
}

/** "384 rollouts read, 384 matched; 56 pairs written to out.jsonl (dpo); skipped: 8 rollouts excluded (...), 40 groups with no reward gap". */
function summaryLine(
  as: ExportFormat,
  out: string,
  counts: { rollouts: number; matched: number; badLines: number; appended: number },
  sink: Sink,
): string {
  const read = [plural(counts.rollouts, 'rollout'), ...(counts.badLines > 0 ? [plural(counts.badLines, 'bad line')] : [])].join(' and ');
  const skipped = [...sink.skips.counts.values()].map(({ noun, why, n }) => `${plural(n, noun)} ${why}`);
  if (counts.appended > 0) skipped.push(`${plural(counts.appended, 'rollout')} appended during the export`);
  return (
    `${read} read, ${formatCount(counts.matched)} matched; ${plural(sink.written(), sink.unit)} written to ${out} (${as})` +
    (skipped.length > 0 ? `; skipped: ${skipped.join(', ')}` : '')
  );
}

function isFormat(v: string | undefined): v is ExportFormat {
  return (FORMATS as readonly (string | undefined)[]).includes(v);
}

function usage(problem: string): number {
  say(
    `${problem}\nusage: trajscope export RUN_OR_FILE... [--where QUERY] --as ${FORMATS.join('|')} --out FILE [read options] [check options]`,
  );
  return 2;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      where: { type: 'string' },
      as: { type: 'string', default: 'v1' },
      out: { type: 'string' },
      ...READ_FLAGS,
      ...CHECK_FLAGS,
    },
  });
}
