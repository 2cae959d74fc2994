import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from '../demo/demoSet';
import { generateDemo, toJsonl } from '../demo/generate';

const USAGE = 'usage: trajscope demo --out FILE [--groups N] [--per-group G] [--seed S]\n';

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
  try {
    const { values } = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        groups: { type: 'string' },
        'per-group': { type: 'string' },
        seed: { type: 'string' },
      },
    });
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
  let done = 0;
  try {
    const rollouts = await generateDemo(opts, () => {
      done++;
      if (process.stderr.isTTY) process.stderr.write(`\r${done} rollouts`);
    });
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
