import { execFileSync } from 'node:child_process';
import type { Rollout } from '../format';
import { qwen3Tokenizer } from './chat/tokenizer';
import { type DemoOptions, demoPlans } from './demoSet';
import { type DemoDeps, playRollout, type RolloutPlan } from './rollout';

/** Rollouts run two at a time (this is a 2-core machine); results keep plan order whatever finishes first. */
const CONCURRENCY = 2;

export function pythonVersion(): string {
  return execFileSync('python3', ['-I', '-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' }).trim();
}

/** Plays the whole demo set. Same options, same records: no wall-clock time or temp path gets in. */
export async function generateDemo(opts: DemoOptions, onDone?: (r: Rollout) => void): Promise<Rollout[]> {
  const tok = qwen3Tokenizer();
  return playAll(demoPlans(opts, tok), { tok, python: pythonVersion() }, onDone);
}

/** Plays rollouts CONCURRENCY at a time; the result is in plan order whatever finishes first. */
export async function playAll(plans: readonly RolloutPlan[], deps: DemoDeps, onDone?: (r: Rollout) => void): Promise<Rollout[]> {
  const out: Rollout[] = new Array(plans.length);
  let next = 0;
  const worker = async () => {
    while (next < plans.length) {
      const i = next++;
      const plan = plans[i];
      if (!plan) continue;
      out[i] = await playRollout(plan, deps);
      onDone?.(out[i]);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return out;
}

export function toJsonl(rollouts: readonly Rollout[]): string {
  return rollouts.map((r) => `${JSON.stringify(r)}\n`).join('');
}
