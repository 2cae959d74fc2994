import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { plural } from '../../analysis';
import { CHECK_FLAGS, checkOptionsOf, READ_FLAGS, readOptionsOf, scanRulesOf, wholeFlag } from '../readOptions';
import { buildIndex, DEFAULT_SHARD_ROWS } from './build';
import { mergeIndexes } from './merge';
import { NothingToIndex } from './traceInputs';
import { serveScans } from './worker';

/**
 * `trajscope index RUN... --out DIR [--jobs N] [--shard-rows N] [--base RUN]` and `trajscope index --merge PART... --out DIR`:
 * exit 0 when the index is written (lint's error findings are data here, not a failure), 2 when an input
 * cannot be read or is of no known format (the index of the others is still written).
 */
export async function runIndexCommand(argv: string[]): Promise<number> {
  if (argv[0] === '--worker') return serveScans();
  try {
    return await indexCommand(argv);
  } catch (e) {
    // A directory holding nothing to index is said as lint says it: one line of what it holds.
    const why = e instanceof NothingToIndex ? e.described : e instanceof Error ? e.message : String(e);
    for (const line of why.split('\n')) process.stderr.write(`trajscope index: ${line}\n`);
    return 2;
  }
}

async function indexCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string', short: 'o' },
      base: { type: 'string' },
      jobs: { type: 'string', short: 'j' },
      'shard-rows': { type: 'string' },
      merge: { type: 'boolean', default: false },
      ...READ_FLAGS,
      ...CHECK_FLAGS,
      quiet: { type: 'boolean', short: 'q', default: false },
    },
  });
  if (!values.out) throw new Error('name the index directory with --out DIR');
  if (positionals.length === 0) throw new Error(values.merge ? 'name the partial indexes to merge' : 'name a run directory or files');
  const say = (s: string) => {
    if (!values.quiet) process.stderr.write(`${s}\n`);
  };
  if (values.merge) {
    const manifest = await mergeIndexes(positionals, values.out);
    say(
      `trajscope index: merged ${plural(positionals.length, 'index', 'indexes')} into ${values.out} (${plural(manifest.files.length, 'file')})`,
    );
    return 0;
  }
  // Checked before anything is read or written: a bad flag leaves no index behind.
  const read = await readOptionsOf(values);
  const { driftThreshold, isCap, unknownAsFinished } = checkOptionsOf(values);
  const rules = await scanRulesOf(values.rules);
  const jobs = wholeFlag('jobs', values.jobs, availableParallelism());
  const shardRows = wholeFlag('shard-rows', values['shard-rows'], DEFAULT_SHARD_ROWS);
  const started = performance.now();
  const outcome = await buildIndex({
    inputs: positionals,
    outDir: values.out,
    ...(values.base === undefined ? {} : { base: values.base }),
    jobs,
    shardRows,
    read,
    rows: { driftThreshold, unknownAsFinished, isCap, ...(rules ? { rules } : {}) },
  });
  for (const u of outcome.unsupported) process.stderr.write(`trajscope index: ${u.file}: ${u.why}\n`);
  for (const f of outcome.manifest.files) {
    const from = f.converted_from;
    const first = from?.errors[0];
    if (!from || !first) continue;
    say(
      `trajscope index: ${f.file} (converted from ${from.dir}): ${plural(from.failed, 'file')} failed to convert, ` +
        `first ${first.file}: ${first.code} ${first.message} (all in manifest.json)`,
    );
  }
  const errors = outcome.manifest.files.reduce((n, f) => n + f.parse_errors.length, 0);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  say(
    `trajscope index: ${plural(outcome.rows, 'rollout')} from ${plural(outcome.manifest.files.length, 'file')} ` +
      `(${outcome.indexed} indexed, ${outcome.resumed} read on, ${outcome.reused} unchanged; ${plural(errors, 'bad line')}) ` +
      `in ${seconds} s -> ${values.out}/manifest.json`,
  );
  return outcome.unsupported.length > 0 ? 2 : 0;
}
