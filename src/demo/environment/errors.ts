/**
 * Failures that are not the model's doing. The environment throws them instead of returning an
 * observation, so a broken sandbox can never reach the model's context dressed up as tool output.
 */
export class InfraError extends Error {
  override readonly name = 'InfraError';
}

/** The rollout was cancelled from outside while a tool ran. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
}
