import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { FORMAT_IDS, FORMAT_LABELS } from '../format';
import { type ReadOptions, readPath } from './readFile';
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

  let fd: number;
  try {
    fd = openSync(out, 'w');
  } catch (e) {
    return fail(`cannot write ${out}: ${e instanceof Error ? e.message : String(e)}`);
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
  try {
    for (const input of inputs) {
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
            if (failed <= MAX_REPORTED_ERRORS)
              process.stderr.write(`${r.value.file}:${r.value.line}: ${r.value.code} ${r.value.message}\n`);
          },
          format,
        );
        if (summary.unsupported !== null) {
          unreadable++;
          process.stderr.write(`trajscope convert: ${input}: ${summary.unsupported}\n`);
          continue;
        }
        const read = summary.format === null ? 'no JSON object found' : FORMAT_LABELS[summary.format];
        const meta = summary.format === 'verifiers-results' && summary.metadata ? ', with the metadata.json beside it' : '';
        process.stderr.write(`trajscope convert: ${input}: read as ${read}${meta}\n`);
      } catch (e) {
        unreadable++;
        const err = e as NodeJS.ErrnoException;
        const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EISDIR' ? 'is a directory' : err.message;
        process.stderr.write(`trajscope convert: cannot read ${input}: ${why}\n`);
      }
    }
    flush();
  } finally {
    closeSync(fd);
  }
  if (failed > MAX_REPORTED_ERRORS)
    process.stderr.write(`trajscope convert: ${failed - MAX_REPORTED_ERRORS} more failed lines not shown\n`);
  process.stderr.write(`trajscope convert: wrote ${written} rollouts to ${out}; ${failed} lines failed to convert\n`);
  if (unreadable > 0) return 2;
  return failed > 0 ? 1 : 0;
}
