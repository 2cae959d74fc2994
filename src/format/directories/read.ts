import type { LineResult } from '../jsonl';
import { readTrial } from './harborJob';
import type { ReadFile, TraceDirectory, TraceUnit } from './layouts';
import { readConversation } from './openHandsConversation';
import { readTau2Run } from './tau2Results';

/** How many traces (rollouts to be) a unit holds: a conversation and a trial one, a tau2 run one per simulation file. */
function tracesIn(unit: TraceUnit): number {
  return unit.layout === 'tau2-results' ? unit.simulations.length : 1;
}

/**
 * Reads every trace of a detected directory through its format's converter, one unit after another and
 * one file at a time (a tau2 run's simulations are never held together), handing each result to `onLine`
 * as it is made. Each rollout is named by its trace's main file (`prefix` + its directory-relative path) at
 * line 1: a conversation's `base_state.json`, a trial's `agent/trajectory.json`, a simulation's own file.
 * Returns how many traces were read (a directory's `lines`).
 */
export async function readTraceDirectory(
  found: TraceDirectory,
  read: ReadFile,
  onLine: (r: LineResult) => void,
  prefix = '',
): Promise<number> {
  let traces = 0;
  for (const unit of found.units) {
    if (unit.layout === 'openhands-conversation') await readConversation(unit, read, prefix, onLine);
    else if (unit.layout === 'harbor-job') await readTrial(unit, read, prefix, onLine);
    else await readTau2Run(unit, read, prefix, onLine);
    traces += tracesIn(unit);
  }
  return traces;
}
