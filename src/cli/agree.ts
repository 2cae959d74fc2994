import { writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import {
  agreement,
  BOOTSTRAP_RESAMPLES,
  BOOTSTRAP_SEED,
  graderRater,
  itemTasks,
  plural,
  type Rater,
  regraderRaters,
  reviewerRaters,
} from '../analysis';
import type { ReadOptions, RegradeRow, Review } from '../format';
import type { AgreeDocument } from './agree/cells';
import { htmlReport } from './agree/html';
import { markdownReport } from './agree/markdown';
import { readGraded, readRegrade, readReviews, SourceError } from './agree/sources';
import { READ_FLAGS, readOptionsOf, wholeFlag } from './readOptions';

const USAGE =
  'usage: trajscope agree RUN_OR_FILE... [--regrade DIR]... [--reviews FILE]... [--format md|html|json] [--seed N] [--resamples N] [--out FILE] [read options]';
const FORMATS = ['md', 'html', 'json'] as const;
type Format = (typeof FORMATS)[number];

const say = (text: string) => process.stderr.write(`trajscope agree: ${text}\n`);

function usage(problem: string): number {
  say(`${problem}\n${USAGE}`);
  return 2;
}

interface AgreeOptions {
  paths: readonly string[];
  regrades: readonly string[];
  reviews: readonly string[];
  seed: number;
  resamples: number;
  read?: ReadOptions;
  warn?: (text: string) => void;
}

/**
 * The agreement of the records' grader, each regrade's grader command and each reviewer, every pair
 * (docs/agreement.md). Throws a `SourceError` naming an input that cannot be read.
 */
async function agreeReport(o: AgreeOptions): Promise<AgreeDocument> {
  const warn = o.warn ?? (() => {});
  const graded = await readGraded(o.paths, o.read ?? {}, warn);
  const rows: RegradeRow[] = [];
  for (const dir of o.regrades) rows.push(...(await readRegrade(dir)));
  const reviews: Review[] = [];
  for (const file of o.reviews) reviews.push(...(await readReviews(file, warn)));
  const grader = graderRater(graded.rollouts);
  const raters: Rater[] = [grader, ...regraderRaters(rows), ...reviewerRaters(reviews, grader)];
  const report = agreement(raters, itemTasks(graded.rollouts, rows), { seed: o.seed, resamples: o.resamples });
  return {
    inputs: { rollouts: graded.rollouts.length, files: graded.files, regrades: o.regrades, reviews: o.reviews },
    ...report,
  };
}

/** The seed: any whole number from 0 to 2^32 - 1 (mulberry32's state). */
function seedOf(raw: string | undefined): number {
  if (raw === undefined) return BOOTSTRAP_SEED;
  const n = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!(Number.isSafeInteger(n) && n >= 0 && n <= 0xffffffff))
    throw new Error(`--seed must be a whole number from 0 to 4294967295, got "${raw}"`);
  return n;
}

/** `--format`, else told by `--out`'s extension (.html, .json), else Markdown. */
function formatOf(raw: string | undefined, out: string | undefined): Format {
  if (raw !== undefined) {
    const f = FORMATS.find((x) => x === raw);
    if (!f) throw new Error(`--format must be md, html or json, got "${raw}"`);
    return f;
  }
  const ext = out === undefined ? '' : extname(out).toLowerCase();
  return ext === '.html' || ext === '.htm' ? 'html' : ext === '.json' ? 'json' : 'md';
}

/**
 * `trajscope agree RUN_OR_FILE... [--regrade DIR]... [--reviews FILE]... [--format md|html|json]
 * [--seed N] [--resamples N] [--out FILE]`: the report on stdout or in FILE. Exit 0, or 2 on a bad option
 * or an input that cannot be read.
 */
export async function runAgree(argv: string[]): Promise<number> {
  let values: ReturnType<typeof parse>['values'];
  let paths: string[];
  let read: ReadOptions;
  let format: Format;
  let seed: number;
  let resamples: number;
  try {
    ({ values, positionals: paths } = parse(argv));
    read = await readOptionsOf(values);
    format = formatOf(values.format, values.out);
    seed = seedOf(values.seed);
    resamples = wholeFlag('resamples', values.resamples, BOOTSTRAP_RESAMPLES);
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e));
  }
  if (paths.length === 0) return usage('name at least one run directory or trajectory file (the grader verdicts)');
  let doc: AgreeDocument;
  try {
    doc = await agreeReport({ paths, regrades: values.regrade ?? [], reviews: values.reviews ?? [], seed, resamples, read, warn: say });
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    say(e.message);
    return 2;
  }
  const text = format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : format === 'html' ? htmlReport(doc) : markdownReport(doc);
  if (values.out === undefined) process.stdout.write(text);
  else {
    try {
      await writeFile(values.out, text);
    } catch (e) {
      say(`cannot write ${values.out}: ${e instanceof Error ? e.message : String(e)}`);
      return 2;
    }
    say(`${plural(doc.pairs.length, 'pair')} of ${plural(doc.raters.length, 'rater')} written to ${values.out}`);
  }
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      regrade: { type: 'string', multiple: true },
      reviews: { type: 'string', multiple: true },
      format: { type: 'string' },
      seed: { type: 'string' },
      resamples: { type: 'string' },
      out: { type: 'string', short: 'o' },
      ...READ_FLAGS,
    },
  });
}
