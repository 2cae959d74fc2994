import { parseArgs } from 'node:util';
import { DEFAULT_RULES_FILE, LintSession } from '../analysis';
import { FORMAT_LABELS, mappingOfInferred, type ReadOptions, type ScanRule } from '../format';
import { writeJsonStreamed } from './jsonReport';
import { openLintSpool } from './lintSpool';
import { readPath } from './readFile';
import { CHECK_FLAGS, type CheckOptions, checkOptionsOf, READ_FLAGS, readOptionsOf, scanRulesOf } from './readOptions';
import { formatReport } from './report';
import { cliTokenText } from './tokenText';

/**
 * `trajscope lint FILE... [--json] [--print-map] [--rules default|RULES.json] [--print-rules] [--is-cap C] [--from NAME] [--map MAP.json] [--unknown-as-finished] [--max-line-bytes N]`:
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
  if (values['print-rules']) {
    // The default scanners as a rule file: the start of one's own (docs/scanners.md).
    process.stdout.write(`${JSON.stringify(DEFAULT_RULES_FILE, null, 2)}\n`);
    return 0;
  }
  if (files.length === 0) {
    process.stderr.write('trajscope lint: name at least one .jsonl or .jsonl.gz file\n');
    return 2;
  }
  let format: ReadOptions;
  let checkOptions: CheckOptions;
  try {
    checkOptions = checkOptionsOf(values);
    format = await readOptionsOf(values);
  } catch (e) {
    process.stderr.write(`trajscope lint: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  if (values['print-map']) return printMap(files, format);
  const { isCap } = checkOptions;
  let rules: readonly ScanRule[] | undefined;
  try {
    rules = await scanRulesOf(values.rules);
  } catch (e) {
    process.stderr.write(`trajscope lint: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const checks = { ...checkOptions, tokenText: cliTokenText, ...(rules ? { rules } : {}) };
  const normalizeStd = !values['dr-grpo'];
  if (values.json) {
    // Bad lines and rollout summaries go to disk as they come, so memory holds only what groups and
    // duplicates need per rollout; the report is then copied out behind its summary.
    const spool = openLintSpool();
    try {
      const session = new LintSession(checks, spool.sink);
      const notRead = await readAll(files, session, format);
      const { summary, groups } = spool.finish(session.totals(normalizeStd));
      // `not_read` only when a file was not read, so a clean run's report is as it always was.
      const report = {
        summary,
        ...(notRead.length > 0 ? { not_read: notRead } : {}),
        parse_errors: spool.parseErrors,
        rollouts: spool.rollouts,
        groups,
      };
      await writeJsonStreamed(process.stdout, report);
      return notRead.length > 0 ? 2 : summary.errors > 0 ? 1 : 0;
    } finally {
      spool.close();
    }
  }
  const session = new LintSession(checks);
  const notRead = await readAll(files, session, format);
  const report = session.report(normalizeStd);
  // Nothing read: no summary, whose "0 rollouts, 0 errors" would read as a clean file beside exit 2.
  if (notRead.length < files.length) {
    const unread = notRead.map((n) => `not read: ${n.file} (${n.reason === 'unsupported' ? 'not a format Trajscope reads' : n.message})\n`);
    process.stdout.write(`${unread.join('')}${formatReport(report, { color: process.stdout.isTTY === true, isCap })}`);
  }
  if (notRead.length > 0) return 2;
  return report.summary.errors > 0 ? 1 : 0;
}

/** A named file lint did not read (exit 2): of no format Trajscope reads, or not readable at all. */
interface NotRead {
  file: string;
  reason: 'unsupported' | 'unreadable';
  message: string;
}

/** Reads every file into the session; returns those that could not be read or are of no known format. */
async function readAll(files: string[], session: LintSession, format: ReadOptions): Promise<NotRead[]> {
  const notRead: NotRead[] = [];
  for (const file of files) {
    try {
      const { lines, unsupported } = await readPath(file, (r) => session.add(r), format);
      if (unsupported !== null) {
        // Another kind of file, not a broken one: said once, and exit 2 (trajectory-format.md §8). Its
        // lines are not counted as read.
        notRead.push({ file, reason: 'unsupported', message: unsupported });
        process.stderr.write(`trajscope lint: ${file}: ${unsupported}\n`);
      } else session.addLineCount(lines);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
      notRead.push({ file, reason: 'unreadable', message: why });
      process.stderr.write(`trajscope lint: cannot read ${file}: ${why}\n`);
    }
  }
  return notRead;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean', default: false },
      'print-map': { type: 'boolean', default: false },
      'print-rules': { type: 'boolean', default: false },
      'dr-grpo': { type: 'boolean', default: false },
      ...READ_FLAGS,
      ...CHECK_FLAGS,
    },
  });
}

/**
 * `--print-map`: the field mapping the structural reader inferred for the first record it read by shape
 * (docs/formats.md, "Read by shape"), as JSON to save and pass to `--map`: a second file of the same tool
 * then reads exactly the same way, and what was inferred can be corrected. Exit 2 when no record was read
 * by shape (a named format read the file, or nothing did).
 */
async function printMap(files: string[], format: ReadOptions): Promise<number> {
  for (const file of files) {
    let inferred: Record<string, unknown> | null = null;
    let read = '';
    try {
      // A directory as lint reads it (a trace layout, or a run file by file): its first record read by shape.
      const summary = await readPath(
        file,
        (r) => {
          if (inferred !== null || r.kind !== 'rollout') return;
          const extra = r.value.record.extra;
          const shape = extra && typeof extra === 'object' ? (extra as Record<string, unknown>).read_by_shape : undefined;
          if (shape && typeof shape === 'object') inferred = shape as Record<string, unknown>;
        },
        format,
      );
      read = summary.format === null ? 'of no format Trajscope reads' : `read as ${FORMAT_LABELS[summary.format]}`;
    } catch (e) {
      process.stderr.write(`trajscope lint: cannot read ${file}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
    const mapping = inferred === null ? null : mappingOfInferred(inferred);
    if (mapping) {
      process.stdout.write(`${JSON.stringify(mapping, null, 2)}\n`);
      return 0;
    }
    process.stderr.write(`trajscope lint: ${file}: no record was read by shape (${read}): nothing to print\n`);
  }
  return 2;
}
