import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { assignReviewers, formatCount, plural, type QueueCandidate, sampleQueue, stratumOf } from '../analysis';
import {
  MAX_QUEUE_ITEMS,
  REVIEW_QUEUE_PATH,
  REVIEW_QUEUE_VERSION,
  type ReadOptions,
  type RegradeRow,
  reviewerNameProblem,
  type ScanRule,
  STRATA,
  type Stratum,
} from '../format';
import { readRegrade, SourceError } from './agree/sources';
import { readCandidates } from './queue/candidates';
import { QueueWriteRefused, queueText, runStateDir, writeAtomically } from './queue/write';
import { READ_FLAGS, readOptionsOf, scanRulesOf, wholeFlag } from './readOptions';
import { type Input, listInputs } from './runIndex/inputs';

const USAGE =
  'usage: trajscope queue RUN_OR_FILE... --reviewers A,B,... --size N [--overlap K] [--seed S] [--regrade DIR]... [--rules default|FILE] [--out FILE] [read options]';

/** The seed when none is given: a queue made twice over the same rollouts is the same queue. */
const DEFAULT_SEED = 1;

const say = (text: string) => process.stderr.write(`trajscope queue: ${text}\n`);

function usage(problem: string): number {
  say(`${problem}\n${USAGE}`);
  return 2;
}

/** `--reviewers a,b,c`: names as the review store keeps them, each once. */
function reviewersOf(raw: string | undefined): string[] {
  if (raw === undefined) throw new Error('--reviewers is required: the names to give the items to, as A,B,C');
  const names = raw.split(',').map((n) => n.trim());
  for (const n of names) {
    const problem = reviewerNameProblem(n);
    if (problem) throw new Error(`--reviewers: ${problem}`);
  }
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) throw new Error(`--reviewers: "${twice}" is given twice`);
  return names;
}

function seedOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SEED;
  const n = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!(Number.isSafeInteger(n) && n >= 0 && n <= 0xffffffff))
    throw new Error(`--seed must be a whole number from 0 to 4294967295, got "${raw}"`);
  return n;
}

interface QueueOptions {
  paths: string[];
  reviewers: string[];
  size: number;
  overlap: number;
  seed: number;
  regrades: string[];
  rules: { name: string; rules: readonly ScanRule[] } | null;
  read: ReadOptions;
  /** The file named by --out, or null for RUN/.trajscope/review-queue.json. */
  out: string | null;
}

async function optionsOf(argv: string[]): Promise<QueueOptions> {
  const { values, positionals: paths } = parse(argv);
  const reviewers = reviewersOf(values.reviewers);
  if (values.size === undefined) throw new Error('--size is required: how many rollouts the queue holds');
  const size = wholeFlag('size', values.size, 0);
  if (size > MAX_QUEUE_ITEMS) throw new Error(`--size must be at most ${MAX_QUEUE_ITEMS}, got "${values.size}"`);
  const overlap = wholeFlag('overlap', values.overlap, 1);
  if (overlap > reviewers.length) {
    throw new Error(`--overlap must be at most the number of reviewers (${reviewers.length}), got "${values.overlap}"`);
  }
  const rules = await scanRulesOf(values.rules);
  return {
    paths,
    reviewers,
    size,
    overlap,
    seed: seedOf(values.seed),
    regrades: values.regrade ?? [],
    rules: rules && values.rules !== undefined ? { name: values.rules, rules } : null,
    read: await readOptionsOf(values),
    out: values.out ?? null,
  };
}

/** The file to write: --out, or the queue's place in the one run directory named. */
async function outputOf(o: QueueOptions): Promise<string | { problem: string }> {
  if (o.out !== null) {
    const s = await stat(o.out).catch(() => null);
    return s?.isDirectory() ? { problem: `--out ${o.out} is a directory; name a file` } : resolve(o.out);
  }
  const only = o.paths.length === 1 ? await stat(o.paths[0] ?? '').catch(() => null) : null;
  if (!only?.isDirectory())
    return { problem: `name the output with --out FILE (${REVIEW_QUEUE_PATH} is the default only for one run directory)` };
  return resolve(join(o.paths[0] ?? '', REVIEW_QUEUE_PATH));
}

function countsOf(candidates: readonly QueueCandidate[], items: readonly { reason: string }[]) {
  const strata = Object.fromEntries(STRATA.map((s) => [s, 0])) as Record<Stratum, number>;
  for (const c of candidates) strata[stratumOf(c.verdict)]++;
  const chosen = (prefix: string) => items.filter((i) => i.reason.startsWith(prefix)).length;
  return {
    rollouts: candidates.length,
    strata,
    chosen: { disagreement: chosen('disagreement'), scanner: chosen('scanner:'), stratum: chosen('stratum:') },
  };
}

/**
 * `trajscope queue RUN_OR_FILE... --reviewers A,B --size N [--overlap K] [--seed S] [--regrade DIR]...
 * [--rules default|FILE] [--out FILE]`: a review queue (docs/review-queue.md), written atomically to
 * RUN/.trajscope/review-queue.json (one run directory) or FILE. Exit 0, or 2 on a bad option, an input
 * that cannot be read, or an output that cannot be written (a link there is refused).
 */
export async function runQueue(argv: string[]): Promise<number> {
  let o: QueueOptions;
  try {
    o = await optionsOf(argv);
  } catch (e) {
    return usage(e instanceof Error ? e.message : String(e));
  }
  if (o.paths.length === 0) return usage('name at least one run directory or trajectory file');
  if (o.paths.some((p) => p === '-' || p === '/dev/stdin')) return usage('standard input cannot be queued: the page opens the files');
  const out = await outputOf(o);
  if (typeof out !== 'string') return usage(out.problem);
  let candidates: QueueCandidate[];
  try {
    const inputs: Input[] = (
      await listInputs(o.paths, '\0').catch((e: unknown) => {
        throw new SourceError(e instanceof Error ? e.message : String(e));
      })
    ).inputs.filter((i) => i.path !== out);
    const rows: RegradeRow[] = [];
    for (const dir of o.regrades) rows.push(...(await readRegrade(dir)));
    candidates = await readCandidates(inputs, o.read, o.rules?.rules, rows, say);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    say(e.message);
    return 2;
  }
  const sampled = sampleQueue(candidates, { size: o.size, seed: o.seed });
  const items = assignReviewers(
    sampled.map(({ candidate: c, reason }) => ({
      file: c.file,
      line: c.line,
      rollout: c.rollout,
      rollout_id: c.rollout_id,
      attempt_id: c.attempt_id,
      task_id: c.task_id,
      verdict: c.verdict,
      reason,
    })),
    o.reviewers,
    o.overlap,
  );
  const counts = countsOf(candidates, items);
  const doc = {
    version: REVIEW_QUEUE_VERSION,
    created: new Date().toISOString(),
    seed: o.seed,
    size: o.size,
    overlap: o.overlap,
    reviewers: o.reviewers,
    inputs: { paths: o.paths, regrades: o.regrades, rules: o.rules?.name ?? null },
    counts,
    items,
  };
  try {
    if (o.out === null) await runStateDir(o.paths[0] ?? '');
    await writeAtomically(out, queueText(doc));
  } catch (e) {
    say(e instanceof QueueWriteRefused ? e.message : `cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`);
    return 2;
  }
  const { chosen } = counts;
  const short = items.length < o.size ? ` (only ${plural(candidates.length, 'rollout')} read)` : '';
  say(
    `${formatCount(items.length)} of ${plural(candidates.length, 'rollout')} queued for ${plural(o.reviewers.length, 'reviewer')}${short}: ` +
      `${plural(chosen.disagreement, 'disagreement')}, ${plural(chosen.scanner, 'scanner hit')}, ${formatCount(chosen.stratum)} by grader verdict; written to ${out}`,
  );
  return 0;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      reviewers: { type: 'string' },
      size: { type: 'string' },
      overlap: { type: 'string' },
      seed: { type: 'string' },
      regrade: { type: 'string', multiple: true },
      rules: { type: 'string' },
      out: { type: 'string', short: 'o' },
      ...READ_FLAGS,
    },
  });
}
