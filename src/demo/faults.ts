import { rm } from 'node:fs/promises';
import type { Sandbox } from './environment/sandbox';

/**
 * Injectable infrastructure events, each tied to the n-th tool call of a rollout (1-based). None of
 * them is the model's doing; the harness must tell them apart from the model's own failures.
 */
export type Fault =
  /** The test subprocess is SIGKILLed as soon as it starts (an OOM kill, a node drain). */
  | { kind: 'kill-test-process'; call: number }
  /** The sandbox directory is deleted before the call runs (a reclaimed volume). */
  | { kind: 'remove-sandbox'; call: number }
  /** The call runs but its response is lost in transport, once; the harness retries with the same call id. */
  | { kind: 'drop-response'; call: number }
  /** An operator cancels the rollout while the call runs. */
  | { kind: 'cancel-during-call'; call: number }
  /**
   * The test subprocess is stopped (SIGSTOP) as soon as it starts, as a frozen cgroup or a stalled mount
   * leaves it: it never exits, so the runner's wall-clock guard kills it and the tool reports a timeout.
   * Added for the scanner cases (crash-under-finished): unlike a kill, this reaches the model as tool output.
   */
  | { kind: 'stall-test-process'; call: number }
  /**
   * Every attempt to send the call fails with a connection reset before it reaches the sandbox, so the
   * harness's retries run out. Added for the scanner cases (infra-error-as-policy-failure).
   */
  | { kind: 'reset-connection'; call: number };

/** The infrastructure side of a rollout: what the harness consults around each call. */
export class FaultInjector {
  constructor(
    private readonly faults: readonly Fault[],
    private readonly sandbox: Sandbox,
    private readonly cancel: AbortController,
  ) {}

  /** Runs just before call `n` reaches the environment. */
  async beforeCall(n: number): Promise<void> {
    this.sandbox.onSpawn = undefined;
    for (const f of this.faults) {
      if (f.call !== n) continue;
      if (f.kind === 'remove-sandbox') await rm(this.sandbox.root, { recursive: true, force: true });
      if (f.kind === 'kill-test-process') this.sandbox.onSpawn = (child) => child.kill('SIGKILL');
      if (f.kind === 'cancel-during-call') this.sandbox.onSpawn = () => this.cancel.abort();
      if (f.kind === 'stall-test-process') this.sandbox.onSpawn = (child) => child.kill('SIGSTOP');
    }
  }

  /** Whether the response of attempt `attempt` of call `n` is lost. */
  dropsResponse(n: number, attempt: number): boolean {
    return attempt === 1 && this.faults.some((f) => f.kind === 'drop-response' && f.call === n);
  }

  /** Whether every attempt to send call `n` fails before it reaches the environment. */
  resetsConnection(n: number): boolean {
    return this.faults.some((f) => f.kind === 'reset-connection' && f.call === n);
  }
}
