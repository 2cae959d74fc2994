import type { Sandbox } from '../environment/sandbox';
import type { ToolResult } from '../environment/types';
import type { FaultInjector } from '../faults';

export class TransportError extends Error {
  override readonly name = 'TransportError';
}

/** The wire between harness and environment. A lost response or a reset connection surfaces as a TransportError. */
export class Transport {
  constructor(
    private readonly sandbox: Sandbox,
    private readonly faults: FaultInjector,
    private readonly signal: AbortSignal,
  ) {}

  async send(n: number, attempt: number, callId: string, tool: string, args: Record<string, unknown>): Promise<ToolResult> {
    if (this.faults.resetsConnection(n)) throw new TransportError(`connection reset by peer (ECONNRESET) sending ${callId}`);
    const result = await this.sandbox.execute(callId, tool, args, this.signal);
    if (this.faults.dropsResponse(n, attempt)) throw new TransportError(`response to ${callId} lost`);
    return result;
  }
}
