import { parseArgs } from 'node:util';
import { DEFAULT_DRIFT_THRESHOLD, DEFAULT_IS_CAP, LintSession } from '../analysis';
import { DEFAULT_MAX_LINE_BYTES } from '../format';
import { writeJsonStreamed } from './jsonReport';
import { openLintSpool } from './lintSpool';
import { type ReadOptions, readFormatOptions, readJsonlFile } from './readFile';
import { formatReport } from './report';
import { cliTokenText } from './tokenText';

/**
 * `trajscope lint FILE... [--json] [--is-cap C] [--from NAME] [--map MAP.json] [--unknown-as-finished] [--max-line-bytes N]`:
 * exit 0 clean, 1 with error findings, 2 when a file cannot be read, is of no format Trajscope reads, or
 * lint itself fails (never 1, which would read as "errors found"). `-` is stdin.
 */
export async function runLint(argv: string[]): Promise<number> {
  try {
    return await lint(argv);
  } catch (e) {
    process.stderr.write(`trajscope lint: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}

async function lint(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    process.stderr.write(`trajscope lint: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const { values, positionals: files } = parsed;
  if (files.length === 0) {
    process.stderr.write('trajscope lint: name at least one .jsonl or .jsonl.gz file\n');
    return 2;
  }
  const driftThreshold = values['drift-threshold'] === undefined ? DEFAULT_DRIFT_THRESHOLD : Number(values['drift-threshold']);
  if (!Number.isFinite(driftThreshold) || driftThreshold < 0) {
    process.stderr.write(`trajscope lint: --drift-threshold must be a non-negative number, got "${values['drift-threshold']}"\n`);
    return 2;
  }
  // §10's cap C: a ratio r = exp(d) > C is clipped. A cap of 0 or below would clip every ratio, which is no
  // statistic, so it is refused rather than reported.
  const rawCap = values['is-cap'];
  const isCap = rawCap === undefined ? DEFAULT_IS_CAP : rawCap.trim() === '' ? Number.NaN : Number(rawCap);
  if (!Number.isFinite(isCap) || isCap <= 0) {
    process.stderr.write(`trajscope lint: --is-cap must be a positive number (the importance-ratio cap C, default 2), got "${rawCap}"\n`);
    return 2;
  }
  const maxLineBytes = values['max-line-bytes'] === undefined ? DEFAULT_MAX_LINE_BYTES : Number(values['max-line-bytes']);
  if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
    process.stderr.write(`trajscope lint: --max-line-bytes must be a positive whole number of bytes, got "${values['max-line-bytes']}"\n`);
    return 2;
  }
  let format: ReadOptions;
  try {
    format = { ...(await readFormatOptions(values)), maxLineBytes };
  } catch (e) {
    process.stderr.write(`trajscope lint: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const checks = { driftThreshold, isCap, tokenText: cliTokenText, unknownAsFinished: values['unknown-as-finished'] };
  const normalizeStd = !values['dr-grpo'];
  if (values.json) {
    // Bad lines and rollout summaries go to disk as they come, so memory holds only what groups and
    // duplicates need per rollout; the report is then copied out behind its summary.
    const spool = openLintSpool();
    try {
      const session = new LintSession(checks, spool.sink);
      const unreadable = await readAll(files, session, format);
      const { summary, groups } = spool.finish(session.totals(normalizeStd));
      await writeJsonStreamed(process.stdout, { summary, parse_errors: spool.parseErrors, rollouts: spool.rollouts, groups });
      return unreadable > 0 ? 2 : summary.errors > 0 ? 1 : 0;
    } finally {
      spool.close();
    }
  }
  const session = new LintSession(checks);
  const unreadable = await readAll(files, session, format);
  const report = session.report(normalizeStd);
  process.stdout.write(formatReport(report, { color: process.stdout.isTTY === true, isCap }));
  if (unreadable > 0) return 2;
  return report.summary.errors > 0 ? 1 : 0;
}

/** Reads every file into the session; returns how many could not be read or are of no known format. */
async function readAll(files: string[], session: LintSession, format: ReadOptions): Promise<number> {
  let unreadable = 0;
  for (const file of files) {
    try {
      const { lines, unsupported } = await readJsonlFile(file, (r) => session.add(r), format);
      session.addLineCount(lines);
      if (unsupported !== null) {
        // Another kind of file, not a broken one: said once, and exit 2 (trajectory-format.md §8).
        unreadable++;
        process.stderr.write(`trajscope lint: ${file}: ${unsupported}\n`);
      }
    } catch (e) {
      unreadable++;
      const err = e as NodeJS.ErrnoException;
      const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
      process.stderr.write(`trajscope lint: cannot read ${file}: ${why}\n`);
    }
  }
  return unreadable;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      'drift-threshold': { type: 'string' },
      'is-cap': { type: 'string' },
      'dr-grpo': { type: 'boolean', default: false },
      'max-line-bytes': { type: 'string' },
      from: { type: 'string' },
      map: { type: 'string' },
      'unknown-as-finished': { type: 'boolean', default: false },
    },
  });
}
