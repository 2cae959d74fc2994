import { describe, expect, it } from 'vitest';
import { fetchedFile, fetchedMissing, fetchedPaths } from '../../testing/fetched';
import type { LineResult } from '../jsonl';
import { createLineParser } from './lineParser';

/*
 * Every `example_rollouts.jsonl` NeMo Gym publishes (NVIDIA-NeMo/Gym at 07d6b0d: 136 files whose name ends so),
 * read in place from the fetched snapshot through the parser the CLI and the browser share. The termination
 * counts were derived from each agent's source (docs/formats.md, NeMo Gym, cites file and field) and checked
 * against these files.
 */
const REPO = 'NVIDIA-NeMo/Gym';
const MISSING = fetchedMissing(REPO);
if (MISSING) console.info(MISSING);

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
type Json = Record<string, any>;

interface FileRead {
  path: string;
  format: string | null;
  rollouts: Json[];
  errors: Array<{ code: string }>;
}

function read(path: string, chunk = 1 << 16): FileRead {
  const bytes = fetchedFile(REPO, path);
  const parser = createLineParser(path.split('/').pop() ?? path);
  const results: LineResult[] = [];
  for (let at = 0; at < bytes.length; at += chunk) results.push(...parser.push(bytes.subarray(at, at + chunk)));
  results.push(...parser.end());
  const rollouts = results.flatMap((r) => (r.kind === 'rollout' ? [r.value.record as Json] : []));
  const errors = results.flatMap((r) => (r.kind === 'error' ? [r.value] : []));
  return { path, format: parser.format, rollouts, errors };
}

let files: FileRead[] | null = null;
/** Read once for every test: 13 MB of rollouts. */
function all(): FileRead[] {
  files ??= fetchedPaths(REPO, /example_rollouts\.jsonl$/).map((p) => read(p));
  return files;
}

function rolloutFiles(): FileRead[] {
  return all().filter((f) => f.format === 'nemo-gym');
}

function rolloutsOf(format: string): Array<{ file: FileRead; r: Json }> {
  return all().flatMap((file) => (file.format === format ? file.rollouts.map((r) => ({ file, r })) : []));
}

/** The agent a rollout names (`agent_ref.name`, a config instance), else the folder its file was published in. */
function agentOf(file: FileRead, r: Json): string {
  const name = r.extra?.agent_ref?.name;
  return typeof name === 'string' ? name : file.path.split('/').slice(0, 2).join('/');
}

function countBy<T>(xs: readonly T[], key: (x: T) => string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[key(x)] = (out[key(x)] ?? 0) + 1;
  return out;
}

/** Files that are not NeMo Gym rollouts, and why: the same before and after the termination change. */
const NOT_ROLLOUTS: Record<string, string> = {
  'resources_servers/bbq/data/example_rollouts.jsonl': 'judge rows (`policy_response`, `answer_judgment`): no `response`',
  'resources_servers/browsecomp_advanced_harness/data/example_rollouts.jsonl': '"<PLACEHOLDER ROW>" lines, not JSON',
  'resources_servers/genrm_compare/data/example_rollouts.jsonl': 'input rows (`responses_create_params`, `agent_ref`): no `response`',
  'resources_servers/jailbreak_detection/data/example_rollouts.jsonl': '"<PLACEHOLDER ROW>" lines, not JSON',
  'resources_servers/multichallenge/data/example_rollouts.jsonl': 'input rows (`responses_create_params`, `rubric`): no `response`',
  'resources_servers/over_refusal_detection/data/example_rollouts.jsonl': '"<PLACEHOLDER ROW>" lines, not JSON',
  'resources_servers/tavily_search/data/example_rollouts.jsonl': '"<PLACEHOLDER ROW>" lines, not JSON',
};

/**
 * E_SCHEMA / E_PARSE errors the files had before the change; none may be added. aviary_agent's
 * `return_transitions` (default true, aviary_agent/app.py) makes `response.output` a list of cumulative agent
 * states, not output items: every line is E_SCHEMA "response.output[0]: expected an output item object".
 */
const KNOWN_ERRORS: Record<string, Record<string, number>> = {
  'resources_servers/aviary/data/example_rollouts.jsonl': { E_SCHEMA: 5 },
};

/** Per agent, the terminations its evidence gives (agents whose every rollout ends finished by the plain rule omitted). */
const EXPECTED: Record<string, Record<string, number>> = {
  // A finishing call: stirrup's `finish`, finance_agent's `submit_final_result`, mini-swe-agent 2's submit command.
  gdpval_stirrup_agent: { finished: 5 },
  finance_agent: { finished: 5 },
  finance_agent_v2: { finished: 5 }, // also `response.metadata.stop_reason: done_tool`
  // Three submitted; two stopped after 6 and 60 commands, not submitted, no reason recorded but `response.status`
  // "completed": in the signal, read from the status (issue 29).
  mini_swe_agent_2: { finished: 5 },
  // Agents' own fields.
  harbor_agent: { finished: 4, budget_exhausted: 1 }, // terminus-2 task_complete twice; n_episodes 20 = max_turns 20
  opencode_sandboxed_agent_deepswe: { finished: 5 }, // opencode_finished
  grl_sokoban_gymnasium_agent: { finished: 1, budget_exhausted: 4 }, // terminated / truncated
  tales_gymnasium_agent: { finished: 2, budget_exhausted: 3 },
  blackjack_gymnasium_agent: { finished: 10 },
  'resources_servers/gymnasium': { finished: 5 }, // terminated, empty output
  osworld_simple_agent: { finished: 5 }, // verifier_metadata.osworld_finished
  tau2_benchmark_agent: { finished: 5 }, // result.termination_reason
  // One model call: its call is the answer.
  'environments/circle_click': { finished: 5 },
  'resources_servers/circle_click': { finished: 5 },
  'resources_servers/terminal_multi_harness': { finished: 5 },
  'resources_servers/single_step_tool_use_with_argument_comparison': { finished: 5 },
  // incomplete_details max_output_tokens.
  ruler_benchmark_simple_agent: { budget_exhausted: 5 },
  human_eval_infilling_simple_agent: { finished: 4, budget_exhausted: 1 },
  imo_proofbench_judge_simple_agent: { finished: 3, budget_exhausted: 2 },
  omniscience_omniscience_simple_agent: { finished: 4, budget_exhausted: 1 },
  speed_bench_simple_agent: { finished: 3, budget_exhausted: 2 },
  'resources_servers/swerl_gen': { finished: 2, budget_exhausted: 3 },
  // No evidence.
  lc_equivalence_rule_simple_agent: { finished: 4, unknown: 1 }, // one lone reasoning item, no incomplete_details
  'resources_servers/swebench': { unknown: 5 }, // empty output, no agent named
  toolsandbox_agent: { unknown: 5 }, // empty output; exception_type is the scorer's
};

const FINISHING_TOOLS = ['finish', 'abandon_task_finish', 'submit_final_result'];

/** Whether the rollout's last model call is a call its agent declares finishing (as nemoGym.ts reads them). */
function endsOnFinishingCall(r: Json): boolean {
  const transcript: Json[] = r.transcript ?? [];
  const last = transcript.findLast((m) => m.role === 'assistant');
  return (last?.tool_calls ?? []).some(
    (c: Json) => FINISHING_TOOLS.includes(c.name) || /"command":\s*"echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT/.test(c.arguments ?? ''),
  );
}

describe.skipIf(MISSING !== null)('NeMo Gym published example rollouts (fetched snapshot)', () => {
  it('reads all 136 files: the ones that are not NeMo Gym rollouts are named, and no NeMo Gym file gained an error', () => {
    expect(all()).toHaveLength(136);
    const notRollouts = all().filter((f) => f.format !== 'nemo-gym');
    expect(notRollouts.map((f) => f.path).filter((p) => !(p in NOT_ROLLOUTS))).toEqual([]);
    // What another reader (detection, the read-by-shape fallback) makes of the files that are not rollouts is its own test's.
    const added = rolloutFiles().flatMap((f) =>
      Object.entries(countBy(f.errors, (e) => e.code))
        .filter(([code, n]) => (code === 'E_SCHEMA' || code === 'E_PARSE') && n > (KNOWN_ERRORS[f.path]?.[code] ?? 0))
        .map(([code, n]) => `${f.path}: ${code} x${n}`),
    );
    expect(added).toEqual([]);
  });

  it('terminations per agent are the ones each agent records', () => {
    const byAgent: Record<string, Record<string, number>> = {};
    for (const { file, r } of rolloutsOf('nemo-gym')) {
      const agent = agentOf(file, r);
      if (!(agent in EXPECTED)) continue;
      byAgent[agent] ??= {};
      const counts = byAgent[agent];
      counts[r.termination] = (counts[r.termination] ?? 0) + 1;
    }
    expect(byAgent).toEqual(EXPECTED);
    // Every other agent's rollouts end on an assistant message with no call: finished.
    const others = rolloutsOf('nemo-gym').filter(({ file, r }) => !(agentOf(file, r) in EXPECTED));
    expect(others.filter(({ r }) => r.termination !== 'finished').map(({ file }) => file.path)).toEqual([]);
    // openair_congestion's 5 gymnasium_agent rollouts (terminated: true) count since detection tries NeMo Gym
    // before SWE-agent: their `trajectory` array with `info` had them read as a .traj.
    expect(countBy(rolloutsOf('nemo-gym'), ({ r }) => r.termination)).toEqual({ finished: 607, budget_exhausted: 22, unknown: 11 });
  });

  it('no rewarded rollout that ends on its agent’s declared finishing call is out of the signal or read as a budget hit', () => {
    const rewarded = rolloutsOf('nemo-gym').filter(({ r }) => typeof r.reward === 'number' && r.reward > 0);
    const submitted = rewarded.filter(({ r }) => endsOnFinishingCall(r));
    expect(submitted).toHaveLength(14);
    expect(submitted.every(({ r }) => r.termination === 'finished')).toBe(true);
    // The one rewarded rollout left unknown records nothing of its end (swebench: empty output, no agent named).
    expect(countBy(rewarded, ({ r }) => r.termination)).toEqual({ finished: 398, unknown: 1 });
  });

  it('no rollout whose response records `status: "completed"` is out of the signal (issue 29)', () => {
    const completed = rolloutsOf('nemo-gym').filter(({ r }) => r.extra?.response?.status === 'completed');
    expect(completed.length).toBeGreaterThan(100);
    expect(countBy(completed, ({ r }) => r.termination).unknown).toBeUndefined();
    // Two are in by the status alone, and say so; the rest by their agent's own evidence.
    const byStatus = completed.filter(({ r }) => r.extra?.termination_evidence !== undefined);
    expect(byStatus.map(({ file, r }) => [agentOf(file, r), r.termination])).toEqual([
      ['mini_swe_agent_2', 'finished'],
      ['mini_swe_agent_2', 'finished'],
    ]);
  });
});
