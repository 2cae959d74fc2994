import { convertValue } from '../adapters/convertValue';
import { idOf, list, rec } from '../adapters/read';
import type { LineResult } from '../jsonl';
import { baseName, folderOf, inFolder, type ReadFile, type Tau2Run } from './layouts';
import { readJson } from './readJson';

/*
 * tau2-bench's directory form of a run (sierra-research/tau2-bench, src/tau2/data_model/simulation.py
 * `Results.save(path, format="dir")`, the default for voice runs, runner/batch.py): `results.json` holds the
 * run's `timestamp`, `info`, `tasks` and `simulation_index` (the simulations left out), and `simulations/`
 * one `SimulationRun` per file, `<sim.id>.json`. `Results.load` reads `sorted(sims_dir.glob("*.json"))`.
 */

const RESULTS = 'results.json';
const SIMULATIONS_DIR = 'simulations';

/**
 * Every run in a listing: a folder with `results.json` and `simulations/*.json`, whose `results.json` is a
 * tau2 `Results` (an object with its required `info` object); another tool's `results.json` is not one.
 */
export async function findTau2Runs(files: readonly string[], read: ReadFile): Promise<Tau2Run[]> {
  const simulations = new Map<string, string[]>();
  const results = new Set<string>();
  for (const path of files) {
    const folder = folderOf(path);
    if (baseName(path) === RESULTS) results.add(folder);
    if (baseName(folder) === SIMULATIONS_DIR && path.endsWith('.json')) {
      const root = folderOf(folder);
      const paths = simulations.get(root) ?? [];
      paths.push(path);
      simulations.set(root, paths);
    }
  }
  const runs: Tau2Run[] = [];
  for (const root of [...simulations.keys()].filter((r) => results.has(r)).sort()) {
    const path = inFolder(root, RESULTS);
    const got = await readJson(read, path, path);
    const meta = 'value' in got ? rec(got.value) : undefined;
    if (!meta || !rec(meta.info)) continue;
    runs.push({ layout: 'tau2-results', root, results: path, meta, simulations: (simulations.get(root) ?? []).sort() });
  }
  return runs;
}

/**
 * Each simulation file -> one rollout, through the `tau2-bench` converter with the run's `info` (agent and
 * user models, sampling, the tau2 commit) as a monolithic results file gives it. The reward is the
 * simulation's own `reward_info.reward` (the `simulation_index` in `results.json` repeats it). A simulation
 * the index lists but the directory lacks is one error on `results.json`, as `Results.load` refuses it.
 */
export async function readTau2Run(unit: Tau2Run, read: ReadFile, prefix: string, onLine: (r: LineResult) => void): Promise<void> {
  const info = rec(unit.meta.info);
  for (const path of unit.simulations) {
    const got = await readJson(read, path, prefix + path);
    if ('error' in got) onLine({ kind: 'error', value: got.error });
    else for (const r of convertValue('tau2-bench', { info, simulations: [got.value] }, { file: prefix + path, line: 1 })) onLine(r);
  }
  const present = new Set(unit.simulations.map((p) => baseName(p)));
  for (const entry of list(unit.meta.simulation_index) ?? []) {
    const id = idOf(rec(entry)?.id);
    if (id === undefined || present.has(`${id}.json`)) continue;
    const message = `simulation_index lists simulation ${id}, but ${SIMULATIONS_DIR}/${id}.json is not in the directory`;
    onLine({ kind: 'error', value: { file: prefix + unit.results, line: 1, code: 'E_SCHEMA', message } });
  }
}
