import type { Segment, Step } from '../../format';
import { systemTurn, userTurn } from '../chat/chatml';
import type { Tokenizer } from '../chat/tokenizer';
import { CancelledError, InfraError } from '../environment/errors';
import type { Sandbox } from '../environment/sandbox';
import { TOOL_NAMES, TOOL_SPECS } from '../environment/toolSpecs';
import type { ToolResult } from '../environment/types';
import type { FaultInjector } from '../faults';
import type { Action } from '../policy/policy';
import type { Rng } from '../policy/rng';
import type { Task } from '../tasks';
import { COST_MS, type SimClock } from './clock';
import { type Compaction, ContextWindow, type Transcript } from './context';
import { parseToolCall } from './parseCall';
import { Transport, TransportError } from './transport';

const SYSTEM_INSTRUCTIONS = 'You are a careful software engineer. Fix the bug described by the user with the tools below.';

/** Transport attempts per call before the harness gives up and calls it an infrastructure failure. */
const MAX_ATTEMPTS = 3;

export interface Budget {
  max_actions: number;
  max_seconds: number;
}

type HarnessTermination = 'finished' | 'budget_exhausted' | 'invalid_call' | 'infra_failure' | 'cancelled';

/** The model as the harness sees it: token ids in, one generation out. */
export interface Model {
  act(contextIds: readonly number[], rng: Rng, steer?: string): Action;
}

export interface HarnessRun {
  task: Task;
  policy: Model;
  rng: Rng;
  budget: Budget;
  clock: SimClock;
  sandbox: Sandbox;
  faults: FaultInjector;
  cancel: AbortSignal;
  /** Scripted scenarios: the move to take at each turn; turns past the end are sampled. */
  steer?: readonly string[];
  compaction?: Compaction;
  /**
   * A deliberately mis-configured harness, for the scanner cases only: an infrastructure failure (the
   * transport gave up, the sandbox is gone) is recorded as the tool's error and shown to the model, and the
   * rollout goes on instead of ending as infra_failure. So it stays in the policy signal: the bug
   * infra-error-as-policy-failure exists to catch. Never set in the demo file or the training run.
   */
  misclassifyInfra?: boolean;
}

export interface HarnessResult {
  segments: Segment[];
  steps: Step[];
  termination: HarnessTermination;
  /** Why the run ended, in words, for anything but a normal finish. */
  detail: string | null;
  /** The submitted diff, on finish. */
  artifact: string | null;
  actionsUsed: number;
  transcript: Transcript;
}

/**
 * The harness role: shows the model its context, parses each generated call, dispatches it to the
 * environment, stamps ids and (simulated) times, enforces the action budget, retries transport
 * failures under the same call id, and decides why the rollout ended. It never grades.
 */
export async function runHarness(run: HarnessRun, tok: Tokenizer): Promise<HarnessResult> {
  const { clock, budget } = run;
  const ctx = new ContextWindow(tok, systemTurn(SYSTEM_INSTRUCTIONS, TOOL_SPECS) + userTurn(run.task.prompt), run.compaction);
  const segments: Segment[] = [];
  const steps: Step[] = [];
  const startMs = clock.now;
  const end = (termination: HarnessTermination, detail: string | null, artifact: string | null = null): HarnessResult => ({
    segments,
    steps,
    termination,
    detail,
    artifact,
    actionsUsed: steps.filter((s) => (s.executions ?? 1) > 0).length,
    transcript: ctx.transcript(),
  });

  for (;;) {
    if (run.cancel.aborted) return end('cancelled', 'cancelled before the next generation');
    if (steps.length >= budget.max_actions) return end('budget_exhausted', `used all ${budget.max_actions} actions without finishing`);
    if (clock.now - startMs >= budget.max_seconds * 1000)
      return end('budget_exhausted', `used all ${budget.max_seconds} s without finishing`);
    ctx.compact();
    const input = ctx.visible();
    const action = run.policy.act(input, run.rng, run.steer?.[segments.length]);
    clock.advance(COST_MS.prefill + COST_MS.perGeneratedToken * action.ids.length);
    const call = parseToolCall(tok.decode(action.ids));
    const callId = call.ok ? `c-${String(steps.length + 1).padStart(3, '0')}` : null;
    segments.push({
      input_ids: input,
      generated_ids: action.ids,
      old_logprobs: action.logprobs,
      tool_call_id: callId,
      generated_tokens: action.ids.map((id) => tok.piece(id)),
    });
    ctx.appendGeneration(action.ids);
    if (!call.ok || callId === null) return end('invalid_call', call.ok ? null : call.reason);
    if (!TOOL_NAMES.has(call.name)) {
      steps.push(rejected(callId, call.name, call.args, clock));
      return end('invalid_call', `unknown tool "${call.name}"`);
    }
    const outcome = await dispatch(run, steps.length + 1, callId, call.name, call.args);
    steps.push(outcome.step);
    if (outcome.kind !== 'ok') return end(outcome.kind === 'infra' ? 'infra_failure' : 'cancelled', outcome.message);
    if (call.name === 'finish') return end('finished', null, outcome.result.artifact ?? '');
    const path = typeof call.args.path === 'string' ? call.args.path : undefined;
    const ok = outcome.result.observation.status === 'ok';
    ctx.appendObservation(outcome.result.observation.text, call.name === 'read_file' && ok ? path : undefined);
    if (call.name === 'edit' && ok && path) ctx.noteEdit(path);
  }
}

function rejected(callId: string, tool: string, args: Record<string, unknown>, clock: SimClock): Step {
  const started_at = clock.iso();
  clock.advance(COST_MS.otherTool);
  return {
    tool_call_id: callId,
    tool,
    args,
    observation: { text: `error: unknown tool "${tool}"; the harness rejected the call`, status: 'error', truncated: false },
    attempts: 1,
    executions: 0,
    started_at,
    ended_at: clock.iso(),
  };
}

type Dispatched = { kind: 'ok'; step: Step; result: ToolResult } | { kind: 'infra' | 'cancelled'; step: Step; message: string };

/** One call through the transport, retried under the same call id when a response is lost. */
async function dispatch(run: HarnessRun, n: number, callId: string, tool: string, args: Record<string, unknown>): Promise<Dispatched> {
  const { clock, sandbox } = run;
  const transport = new Transport(sandbox, run.faults, run.cancel);
  const started_at = clock.iso();
  const base = (attempts: number): Step => ({
    tool_call_id: callId,
    tool,
    args,
    attempts,
    executions: sandbox.executions(callId),
    started_at,
  });
  await run.faults.beforeCall(n);
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await transport.send(n, attempt, callId, tool, args);
      clock.advance(result.observation.status === 'timeout' ? COST_MS.testTimeout : (COST_MS.tool[tool] ?? COST_MS.otherTool));
      const step: Step = { ...base(attempt), observation: { ...result.observation }, ended_at: clock.iso() };
      if (result.tests) step.tests = { ...result.tests };
      return { kind: 'ok', step: order(step), result };
    } catch (e) {
      if (e instanceof TransportError && attempt < MAX_ATTEMPTS) {
        clock.advance(COST_MS.transportTimeout);
        continue;
      }
      const kind = e instanceof CancelledError ? 'cancelled' : e instanceof InfraError || e instanceof TransportError ? 'infra' : null;
      if (kind === null || !(e instanceof Error)) throw e;
      clock.advance(COST_MS.otherTool);
      if (kind === 'infra' && run.misclassifyInfra) {
        const observation = { text: `error: ${e.message}`, status: 'error' as const, truncated: false };
        return { kind: 'ok', step: order({ ...base(attempt), observation, ended_at: clock.iso() }), result: { observation } };
      }
      const text = `${kind === 'infra' ? 'infrastructure failure' : 'cancelled'}: ${e.message} (no observation reached the model)`;
      const step: Step = { ...base(attempt), observation: { text, status: 'error', truncated: false }, ended_at: clock.iso() };
      return { kind, step: order(step), message: e.message };
    }
  }
}

/** Fixed key order, so records read the same way everywhere. */
function order(s: Step): Step {
  const { tool_call_id, tool, args, observation, tests, attempts, executions, started_at, ended_at } = s;
  const out: Step = { tool_call_id, tool, args, observation };
  if (tests) out.tests = tests;
  return { ...out, attempts, executions, started_at, ended_at };
}
