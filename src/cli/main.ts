import { runLint } from './lint';
import { FLAGS_HELP } from './readOptions';

const USAGE = `usage: trajscope <command> [options]

commands:
  lint FILE... [--json] [--dr-grpo] [--rules default|RULES.json] [--print-rules] [--print-map] [read options] [check options]   (FILE - is stdin)
      check trajectories against the v1 contract; exit 0 clean, 1 with errors, 2 when a file cannot be read
      or is of no format Trajscope reads, or an option is wrong
  convert IN... --out OUT.jsonl [read options]
      convert other tools' rollouts (verifiers, prime-rl traces, rLLM, OpenAI chat, SWE-agent,
      mini-swe-agent, veRL, Harbor ATIF, Atropos) to v1; --map reads your own format by a field mapping
  view PATH... [--host H] [--port P] [--open] [--map MAP.json] [--files]
      serve the inspector and these files (or directories of them) on 127.0.0.1, following appends live;
      one directory of two or more files is a run: it is indexed in the background (RUN/.trajscope/index)
      and opens on its run page (--files: open it as a list of files instead)
  index RUN... --out DIR [--jobs N] [--shard-rows N] [read options] [check options]
      write a Parquet run index (one row per rollout, docs/adr/0013); unchanged files keep their shards,
      a grown file is read on from its last indexed line. index --merge PART... --out DIR joins partial indexes
  query RUN_OR_INDEX "SQL" [--json | --csv] [--limit N] [--allow-write]
      SQL (DuckDB) over a run index: tables rollouts, groups, advantages, duplicates, parse_errors; a run
      directory is indexed (or refreshed) first, into RUN/.trajscope/index. Read-only: one SELECT or
      EXPLAIN, no file access (--allow-write lifts it); at most --limit rows printed (default 10,000; 0: all)
  export RUN_OR_FILE... [--where QUERY] --as v1|sft|dpo|parquet --out FILE [read options] [check options]
      the rollouts a search query chooses (the app's query language; none: every rollout) as training data:
      v1 records, sft chat conversations of rewarded rollouts, dpo pairs of each group's best and worst, or
      parquet index rows; each with its provenance (file, line, rollout key, query); a summary on stderr
  regrade RUN_OR_FILE... --grader 'CMD' --out DIR [--jobs N] [--timeout S] [read options]
      run a grader command once per rollout over its stored artifact (in a fresh temporary directory, the
      task on stdin and in TRAJSCOPE_* variables; it prints {"reward", "verdict"}); DIR/regrade.parquet has
      old and new verdicts per rollout; DIR/regrade.journal lets an interrupted regrade resume (docs/adr/0025)
  agree RUN_OR_FILE... [--regrade DIR]... [--reviews FILE]... [--format md|html|json] [--seed N] [--resamples N] [--out FILE]
      agreement of the grader (grading.verdict), each regrade's grader command and each reviewer (an exported
      reviews file or a run's .trajscope/reviews.jsonl), every pair: confusion matrix, agreement, Cohen's kappa
      with a seeded bootstrap interval, overall and per task (docs/agreement.md)
  queue RUN_OR_FILE... --reviewers A,B,... --size N [--overlap K] [--seed S] [--regrade DIR]... [--rules default|FILE] [--out FILE]
      a review queue: every grader / regrade disagreement, then scanner hits, then a seeded sample stratified by
      grader verdict, given round robin to the reviewers (--overlap K: each item to K of them); written atomically
      to RUN/.trajscope/review-queue.json, where \`view RUN\` shows it on its Queue page (docs/review-queue.md)
  modes FILE_OR_DIR... [--json] [read options]
      failure modes: the failing or excluded rollouts grouped by signature (termination, the last failing
      observation as a template, last tool, regressions, findings), ranked by count with their share per
      training step (docs/failure-modes.md)
  bundle RUN --out SITE [--jobs N] [read options]
      write a static site of the run (the inspector, the run's files, their index) that any static host
      answering HTTP range requests serves; the page opens on the run
  demo --out FILE [--groups N] [--per-group G] [--seed S]
      run the demo harness and write real rollouts
  demo --train --out DIR [--steps N] [--seed S] [--async K] [--per-group G] [--dr-grpo] [--gzip] [--live]
      train the demo policy with GRPO and write the run, DIR/step_NNNN.jsonl per update
  demo --scanner-cases --out FILE [--seed S]
      write one scripted rollout per default scanner rule, and a clean one (public/demo/scanner-cases.jsonl)

${FLAGS_HELP}`;

/** Entry point; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'lint':
      return runLint(rest);
    case 'convert': {
      const { runConvert } = await import('./convert');
      return runConvert(rest);
    }
    case 'view': {
      const { runView } = await import('./view');
      return runView(rest);
    }
    case 'index': {
      const { runIndexCommand } = await import('./runIndex/command');
      return runIndexCommand(rest);
    }
    case 'query': {
      const { runQuery } = await import('./query');
      return runQuery(rest);
    }
    case 'export': {
      const { runExport } = await import('./export');
      return runExport(rest);
    }
    case 'regrade': {
      const { runRegrade } = await import('./regrade');
      return runRegrade(rest);
    }
    case 'agree': {
      const { runAgree } = await import('./agree');
      return runAgree(rest);
    }
    case 'queue': {
      const { runQueue } = await import('./queue');
      return runQueue(rest);
    }
    case 'modes': {
      const { runModes } = await import('./modes');
      return runModes(rest);
    }
    case 'bundle': {
      const { runBundle } = await import('./bundle');
      return runBundle(rest);
    }
    case 'demo': {
      const { runDemo } = await import('./demo');
      return runDemo(rest);
    }
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(USAGE);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`trajscope: unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}
