import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { vi } from 'vitest';
import { fetchedMissingAt, materializeFetched } from './fetched';

/*
 * Trace directories laid out on disk for the tests of what reads them (lint and convert, `index`, `view`):
 * the documented shapes of docs/formats.md, "Directories as traces", small, as the published examples
 * have them, written into a scratch folder a test file removes when it is done.
 */

// biome-ignore lint/suspicious/noExplicitAny: converted records are untyped JSON; the assertions check their shape
export type Json = Record<string, any>;

const BIN = join(import.meta.dirname, '../../bin/trajscope.mjs');

/** Writes one file under `dir` (JSON values written pretty, as the tools write them; strings as they are). */
export function write(dir: string, path: string, value: unknown): void {
  const to = join(dir, ...path.split('/'));
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

export interface ScratchFolder {
  base: string;
  /** A path under `base` not used before: the stem and a number counted across the folder. */
  fresh(stem: string): string;
  /** A new directory holding these files, named `d<n>` unless named. */
  directory(files: Record<string, unknown>, name?: string): string;
  /**
   * What `trajscope convert NAME --out F` writes, run in the directory's parent (the real command): a copy
   * names its rollouts by the directory's name and the path within it, as `convert` names them by the path typed.
   */
  convertedByConvert(dir: string): Promise<Json[]>;
  remove(): void;
}

/** A scratch folder in the system's temporary folder, its name starting with `prefix`. */
export function scratchFolder(prefix: string): ScratchFolder {
  const base = mkdtempSync(join(tmpdir(), prefix));
  let made = 0;
  const fresh = (stem: string) => join(base, `${stem}${made++}`);
  return {
    base,
    fresh,
    directory(files, name) {
      const dir = name === undefined ? fresh('d') : join(base, name);
      for (const [path, value] of Object.entries(files)) write(dir, path, value);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
    async convertedByConvert(dir) {
      const out = `${fresh('convert-')}.jsonl`;
      await promisify(execFile)(process.execPath, [BIN, 'convert', basename(dir), '--out', out], { cwd: dirname(dir), timeout: 30_000 });
      return readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l));
    },
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** A command run in this process with its output captured. */
export async function captured(run: () => Promise<number>): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => out.push(String(s)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => err.push(String(s)) > 0);
  const code = await run();
  vi.restoreAllMocks();
  return { code, stdout: out.join(''), stderr: err.join('') };
}

export const atif = (session: string) => ({
  schema_version: 'ATIF-v1.5',
  session_id: session,
  agent: { name: 'terminus-2', version: '2.0.0', model_name: 'openai/gpt-4o' },
  steps: [
    { step_id: 1, source: 'user', message: 'Create hello.txt.' },
    {
      step_id: 2,
      source: 'agent',
      message: 'Writing it.',
      tool_calls: [{ tool_call_id: `${session}-1`, function_name: 'bash_command', arguments: { keystrokes: 'echo hi > hello.txt\n' } }],
      observation: { results: [{ source_call_id: `${session}-1`, content: 'root@c:/app# ' }] },
    },
  ],
});

export const trialResult = (trial: string, reward: number) => ({
  task_name: 'hello-world',
  trial_name: trial,
  trial_uri: `file:///jobs/j/${trial}`,
  agent_info: { name: 'terminus-2', version: '2.0.0' },
  verifier_result: { rewards: { reward } },
  exception_info: null,
});

/** A Harbor job of two trials, hello-world__a (reward 1, session sess-a) and hello-world__b (reward 0, sess-b). */
export const harborJob = () => ({
  'config.json': {},
  'result.json': { n_total_trials: 2 },
  'job.log': '',
  'hello-world__a/agent/trajectory.json': atif('sess-a'),
  'hello-world__a/result.json': trialResult('hello-world__a', 1),
  'hello-world__a/verifier/reward.txt': '1',
  'hello-world__b/agent/trajectory.json': atif('sess-b'),
  'hello-world__b/result.json': trialResult('hello-world__b', 0),
});

const EVENT = '0d063a22-20db-40db-93f0-4edbc42b2ff5';
/** The path of an OpenHands conversation's k-th event. */
export const eventName = (k: number) => `events/event-${String(k).padStart(5, '0')}-${EVENT}.json`;

/** An agent's terminal command and its result, as the SDK persists them (the published example's shapes). */
export const terminalCall = (k: number) => ({
  id: `a-${k}`,
  source: 'agent',
  thought: [],
  action: { command: `echo ${k}`, is_input: false, reset: false, kind: 'TerminalAction' },
  tool_name: 'terminal',
  tool_call_id: `call-${k}`,
  tool_call: { id: `call-${k}`, name: 'terminal', arguments: `{"command":"echo ${k}"}`, origin: 'completion' },
  llm_response_id: `resp-${k}`,
  kind: 'ActionEvent',
});
export const terminalResult = (k: number) => ({
  id: `o-${k}`,
  source: 'environment',
  tool_name: 'terminal',
  tool_call_id: `call-${k}`,
  observation: { content: [{ type: 'text', text: `${k}` }], is_error: false, exit_code: 0, kind: 'TerminalObservation' },
  action_id: `a-${k}`,
  kind: 'ObservationEvent',
});

/** An OpenHands SDK conversation, finished: the user's message, one terminal command (events 1 and 2). */
export const openHandsConversation = () => ({
  'base_state.json': { agent: { llm: { model: 'openai/gpt-4o-mini' } }, execution_status: 'finished' },
  [eventName(0)]: { kind: 'MessageEvent', source: 'user', llm_message: { role: 'user', content: 'Echo 1 then 2.' } },
  [eventName(1)]: terminalCall(1),
  [eventName(2)]: terminalResult(1),
});

/** A tau2-bench results directory of one simulation, s1 of task 3, reward 0.5. */
export const tau2Run = () => ({
  'results.json': { timestamp: '2026-06-30T11:40:00', info: { agent_info: { llm: 'gpt-4.1' } }, tasks: [] },
  'simulations/s1.json': {
    id: 's1',
    task_id: '3',
    termination_reason: 'agent_stop',
    reward_info: { reward: 0.5 },
    messages: [
      { role: 'user', content: 'Hello.' },
      { role: 'assistant', content: 'Goodbye.' },
    ],
  },
});

/** A published OpenHands SDK conversation folder: one conversation of 2 steps (terminal, finish). */
const PROBE = {
  repo: 'OpenHands/software-agent-sdk',
  commit: '0bb2b16febc248553f6bdfa8ad89a8fae0d33cbf',
  folder: '.pr/event-json-to-openai-messages/cd94562403b9487ebdd4018e3f531dfd/conversations',
};

/** Why the published folder is not on this machine (its tests skip, saying so), or null when it is. */
export const PROBE_MISSING = fetchedMissingAt(PROBE.repo, PROBE.commit);

/** The published folder copied out for a test, which removes it when done. */
export const openHandsProbe = () => materializeFetched(PROBE.repo, PROBE.folder, PROBE.commit);
