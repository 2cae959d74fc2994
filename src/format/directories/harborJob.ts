import { convertValue } from '../adapters/convertValue';
import { FORMAT_LABELS } from '../adapters/formatInfo';
import { compact, type Json, num, rec, rewardFor, str } from '../adapters/read';
import { checkRecord, type LineResult } from '../jsonl';
import { baseName, folderOf, type HarborTrial, inFolder, type ReadFile } from './layouts';
import { readJson } from './readJson';

/*
 * A Harbor (Terminal-Bench) job: `<job>/<trial>/` per trial (harbor src/harbor/models/trial/paths.py
 * `TrialPaths`: `agent/` the agent's logs, `verifier/` the verifier's, `config.json`, `result.json` the
 * `TrialResult`, `trial.log`). The installed agents write their ATIF log as `agent/trajectory.json`
 * (agents/installed/*.py, terminus_2); the verifier's reward is in `result.json`, never in the ATIF file.
 */

const TRAJECTORY = 'agent/trajectory.json';
const RESULT = 'result.json';
/** Files a trial folder has and its job folder (`config.json`, `result.json`, `job.log`) has not. */
const TRIAL_ONLY = ['agent', 'verifier', 'trial.log'];

/**
 * Every trial in a listing: a folder with `agent/trajectory.json`, or with `result.json` beside a file of
 * `agent/`, `verifier/` or `trial.log` (a trial whose agent wrote no trajectory; the job's own
 * `result.json` sits beside trial folders, none of these).
 */
export function findTrials(files: readonly string[]): HarborTrial[] {
  const trajectories = new Set<string>();
  const results = new Set<string>();
  const trialLike = new Set<string>();
  for (const path of files) {
    const parts = path.split('/');
    if (path === TRAJECTORY || path.endsWith(`/${TRAJECTORY}`)) trajectories.add(folderOf(folderOf(path)));
    if (baseName(path) === RESULT) results.add(folderOf(path));
    parts.forEach((part, i) => {
      if (TRIAL_ONLY.includes(part) && (i < parts.length - 1 || part === 'trial.log')) trialLike.add(parts.slice(0, i).join('/'));
    });
  }
  const roots = new Set([...trajectories, ...[...results].filter((r) => trialLike.has(r))]);
  return [...roots].sort().map((root) => ({
    layout: 'harbor-job',
    root,
    trajectory: trajectories.has(root) ? inFolder(root, TRAJECTORY) : null,
    result: results.has(root) ? inFolder(root, RESULT) : null,
  }));
}

function trialMain(unit: HarborTrial): string {
  return unit.trajectory ?? unit.result ?? inFolder(unit.root, TRAJECTORY);
}

/**
 * The trial's reward from `verifier_result.rewards` (models/verifier/result.py: a dict of named rewards;
 * verifier.py writes `{"reward": x}` from `reward.txt`, or a task's own `reward.json` keys): the value of
 * `reward`, else the only value (Harbor's metrics, metrics/mean.py, take a dict of exactly one key); null
 * when there is none (the verifier did not run) or several other keys, which stay in `extra.harbor_trial`.
 */
function trialReward(result: Json): number | null {
  const rewards = rec(rec(result.verifier_result)?.rewards);
  if (!rewards) return null;
  const named = num(rewards.reward);
  if (named !== undefined) return named;
  const values = Object.values(rewards);
  return values.length === 1 ? (num(values[0]) ?? null) : null;
}

/** The trial's facts put on its rollout: the task (`task_name`), the reward, what the trial recorded of itself. */
function withTrial(r: Extract<LineResult, { kind: 'rollout' }>, result: Json): LineResult {
  const record: Json = { ...r.value.record };
  const exception = rec(result.exception_info);
  const extra: Json = { ...rec(record.extra) };
  extra.harbor_trial = compact({
    trial_name: str(result.trial_name),
    id: str(result.id),
    rewards: rec(result.verifier_result)?.rewards,
    exception_type: str(exception?.exception_type),
    exception_message: str(exception?.exception_message),
  });
  const task = str(result.task_name);
  if (task) record.task_id = task;
  record.reward = rewardFor(String(record.termination), trialReward(result), extra);
  record.extra = extra;
  const checked = checkRecord(record, r.value.line, r.value.file);
  if (checked.kind === 'rollout') return checked;
  return {
    kind: 'error',
    value: { ...checked.value, message: `${FORMAT_LABELS['harbor-atif']}, with its trial's result.json: ${checked.value.message}` },
  };
}

/**
 * One trial -> one rollout: `agent/trajectory.json` through the `harbor-atif` converter, with the trial's
 * task and reward from `result.json`. A trial with no trajectory is one error naming its `result.json`
 * (and the exception it ended with): there is no conversation to read.
 */
export async function readTrial(unit: HarborTrial, read: ReadFile, prefix: string, onLine: (r: LineResult) => void): Promise<void> {
  let result: Json | undefined;
  if (unit.result !== null) {
    const got = await readJson(read, unit.result, prefix + unit.result);
    if ('error' in got) onLine({ kind: 'error', value: got.error });
    else result = rec(got.value);
  }
  if (unit.trajectory === null) {
    const why = str(rec(result?.exception_info)?.exception_type);
    const message = `a Harbor trial with no ${TRAJECTORY}: its agent wrote no ATIF trajectory${why ? ` (the trial ended with ${why})` : ''}`;
    onLine({ kind: 'error', value: { file: prefix + trialMain(unit), line: 1, code: 'E_SCHEMA', message } });
    return;
  }
  const file = prefix + unit.trajectory;
  const got = await readJson(read, unit.trajectory, file);
  if ('error' in got) {
    onLine({ kind: 'error', value: got.error });
    return;
  }
  for (const r of convertValue('harbor-atif', got.value, { file, line: 1 }))
    onLine(r.kind === 'rollout' && result ? withTrial(r, result) : r);
}
