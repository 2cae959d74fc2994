import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FORMAT_IDS, FORMAT_LABELS, type ParseError, type ReadOptions } from '../format';
import { readPath } from './readFile';
import { READ_FLAGS, readOptionsOf } from './readOptions';

/** Enough failed lines to see the pattern; a wrong `--from` on a large file would otherwise flood the terminal. */
const MAX_REPORTED_ERRORS = 200;
/** Output is written in batches of about this many bytes. */
const WRITE_BATCH = 1 << 20;

const USAGE = `usage: trajscope convert [--from auto|${FORMAT_IDS.join('|')}] [--map MAP.json] IN... --out OUT.jsonl`;

/**
 * `trajscope convert [--from auto|NAME] IN... --out OUT.jsonl`: writes every input as v1 JSONL, in input
 * order. Exit 0 when every line converted, 1 when some failed (the rest are still written and each failure
 * is on stderr as file:line), 2 on bad arguments or an unreadable input.
 */
export async function runConvert(argv: string[]): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`trajscope convert: ${message}\n${USAGE}\n`);
    return 2;
  };
  let values: { from?: string; out?: string; map?: string; 'max-line-bytes'?: string };
  let inputs: string[];
  try {
    const parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...READ_FLAGS, out: { type: 'string', short: 'o' } },
    });
    values = parsed.values;
    inputs = parsed.positionals;
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  let format: ReadOptions;
  try {
    format = await readOptionsOf(values);
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  if (values.out === undefined) return fail('name the output file with --out OUT.jsonl');
  if (inputs.length === 0) return fail('name at least one input file');
  const out = values.out;
  if (inputs.some((i) => resolve(i) === resolve(out))) return fail(`--out ${out} is also an input`);

  let counts: Converted;
  try {
    counts = await convertToFile(inputs, out, format, {
      failed: (e, n) => {
        if (n <= MAX_REPORTED_ERRORS) process.stderr.write(`${e.file}:${e.line}: ${e.code} ${e.message}\n`);
      },
      said: (message) => process.stderr.write(`trajscope convert: ${message}\n`),
    });
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    return fail(e.message);
  }
  const { written, failed, unreadable } = counts;
  if (failed > MAX_REPORTED_ERRORS)
    process.stderr.write(`trajscope convert: ${failed - MAX_REPORTED_ERRORS} more failed lines not shown\n`);
  process.stderr.write(`trajscope convert: wrote ${written} rollouts to ${out}; ${failed} lines failed to convert\n`);
  if (unreadable > 0) return 2;
  return failed > 0 ? 1 : 0;
}

/** What converting says as it goes: each line that failed (numbered from 1), and a line per input. */
export interface ConvertListener {
  failed: (error: ParseError, nth: number) => void;
  /** "IN: read as FORMAT", "IN: <why it is of no known format>", "cannot read IN: <why>". */
  said: (message: string) => void;
  /** An input of no known format, or unreadable: why, in one line (also said). */
  unreadable?: (input: string, why: string) => void;
}

export interface Converted {
  written: number;
  failed: number;
  /** Inputs of no known format, or that could not be read. */
  unreadable: number;
}

/** The output file could not be opened: a usage error of `convert`, not an input's. */
class OutputError extends Error {}

/**
 * Writes every input (a file, or a directory: `readPath`, its rollouts named by `name` when given) as v1
 * JSON Lines to `out`, in input order: the one converter behind `trajscope convert`, and behind `index` and
 * `view` of a trace directory (its converted copy). Records are written in batches as they are read, never
 * held together.
 */
export async function convertToFile(
  inputs: readonly (string | { path: string; name: string })[],
  out: string,
  format: ReadOptions,
  listen: ConvertListener,
): Promise<Converted> {
  let fd: number;
  try {
    fd = openSync(out, 'w');
  } catch (e) {
    throw new OutputError(`cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`);
  }
  let batch: string[] = [];
  let batchBytes = 0;
  const flush = () => {
    if (batch.length > 0) writeSync(fd, batch.join(''));
    batch = [];
    batchBytes = 0;
  };
  let written = 0;
  let failed = 0;
  let unreadable = 0;
  const refuse = (input: string, why: string, message: string) => {
    unreadable++;
    listen.said(message);
    listen.unreadable?.(input, why);
  };
  try {
    for (const named of inputs) {
      const [input, name] = typeof named === 'string' ? [named, undefined] : [named.path, named.name];
      try {
        const summary = await readPath(
          input,
          (r) => {
            if (r.kind === 'rollout') {
              const line = `${JSON.stringify(r.value.record)}\n`;
              batch.push(line);
              batchBytes += line.length;
              written++;
              if (batchBytes >= WRITE_BATCH) flush();
              return;
            }
            failed++;
            listen.failed(r.value, failed);
          },
          format,
          name,
        );
        if (summary.unsupported !== null) {
          refuse(input, summary.unsupported, `${input}: ${summary.unsupported}`);
          continue;
        }
        const read = summary.format === null ? 'no JSON object found' : FORMAT_LABELS[summary.format];
        const meta = summary.format === 'verifiers-results' && summary.metadata ? ', with the metadata.json beside it' : '';
        listen.said(`${input}: read as ${read}${meta}`);
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
        refuse(input, why, `cannot read ${input}: ${why}`);
      }
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return { written, failed, unreadable };
}
