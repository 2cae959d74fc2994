import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../demo/demoSet';
import { generateDemo, toJsonl } from '../demo/generate';
import { generateScannerCases } from '../demo/scannerCases';
import { DEFAULT_TRAIN_OPTIONS } from '../demo/trainRun';
import { type TrainWriteOptions, writeTrainRun } from './demoTrain';

const USAGE =
  'usage: trajscope demo --out FILE [--groups N] [--per-group G] [--seed S]\n' +
  '       trajscope demo --scanner-cases --out FILE [--seed S]\n' +
  '       trajscope demo --train --out DIR [--steps N] [--seed S] [--async K] [--per-group G] [--dr-grpo] [--gzip] [--live]\n';

function intOption(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

/** `trajscope demo`: plays the demo rollouts for real and writes them as JSON Lines. Exit 0; 1 when the run fails; 2 on bad arguments. */
export async function runDemo(argv: string[]): Promise<number> {
  let out: string;
  let opts: DemoOptions;
  let train: TrainWriteOptions | null = null;
  let scannerCases = false;
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        groups: { type: 'string' },
        'per-group': { type: 'string' },
        seed: { type: 'string' },
        train: { type: 'boolean' },
        steps: { type: 'string' },
        async: { type: 'string' },
        'dr-grpo': { type: 'boolean' },
        gzip: { type: 'boolean' },
        live: { type: 'boolean' },
        'scanner-cases': { type: 'boolean' },
      },
    });
    scannerCases = values['scanner-cases'] === true;
    if (scannerCases) {
      // The cases are a fixed list, one rollout per default scanner rule: there are no groups to size.
      for (const flag of ['train', 'groups', 'per-group'] as const) {
        if (values[flag] !== undefined) throw new Error(`--${flag} does not go with --scanner-cases`);
      }
    }
    if (values.train) {
      if (!values.out) throw new Error('--out DIR is required');
      if (values.groups !== undefined) throw new Error('--groups is for the single-file demo; a training step has one group per task');
      train = {
        out: values.out,
        steps: intOption('steps', values.steps, DEFAULT_TRAIN_OPTIONS.steps, 1),
        seed: intOption('seed', values.seed, DEFAULT_TRAIN_OPTIONS.seed, 0),
        async: intOption('async', values.async, DEFAULT_TRAIN_OPTIONS.async, 0),
        perGroup: intOption('per-group', values['per-group'], DEFAULT_TRAIN_OPTIONS.perGroup, 2),
        drGrpo: values['dr-grpo'] === true,
        gzip: values.gzip === true,
        live: values.live === true,
      };
    } else {
      for (const flag of ['steps', 'async', 'dr-grpo', 'gzip', 'live'] as const) {
        if (values[flag] !== undefined) throw new Error(`--${flag} needs --train`);
      }
    }
    if (!values.out) throw new Error('--out FILE is required');
    out = values.out;
    opts = {
      groups: intOption('groups', values.groups, DEFAULT_DEMO_OPTIONS.groups, 0),
      perGroup: intOption('per-group', values['per-group'], DEFAULT_DEMO_OPTIONS.perGroup, 1),
      seed: intOption('seed', values.seed, DEFAULT_DEMO_OPTIONS.seed, 0),
    };
  } catch (e) {
    process.stderr.write(`trajscope demo: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return 2;
  }
  if (train) return runTrain(train);
  let done = 0;
  const progress = () => {
    done++;
    if (process.stderr.isTTY) process.stderr.write(`\r${done} rollouts`);
  };
  try {
    const rollouts = scannerCases ? await generateScannerCases(opts.seed, progress) : await generateDemo(opts, progress);
    const text = toJsonl(rollouts);
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, text);
    process.stderr.write(
      `${process.stderr.isTTY ? '\r' : ''}wrote ${rollouts.length} rollouts (${Buffer.byteLength(text)} bytes) to ${out}\n`,
    );
    return 0;
  } catch (e) {
    // python3 missing, a full disk: nothing the arguments could fix.
    process.stderr.write(`\ntrajscope demo: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

async function runTrain(o: TrainWriteOptions): Promise<number> {
  try {
    const files = await writeTrainRun(o, (line) => process.stderr.write(`${line}\n`));
    process.stderr.write(`wrote ${files.length} step files to ${o.out}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`trajscope demo: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
