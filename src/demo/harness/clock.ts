import { WALL_CLOCK_MS } from '../testrunner/runTests';

/**
 * Simulated time. Output must be byte-identical for a seed, so no wall-clock time is recorded:
 * every timestamp comes from this clock, which starts at a fixed epoch and advances by the fixed
 * costs below.
 */
export const EPOCH_MS = Date.UTC(2026, 8, 22, 8, 0, 0);

export const COST_MS = {
  /** Per generation: reading the context (prefill). */
  prefill: 120,
  perGeneratedToken: 25,
  tool: { read_file: 40, edit: 60, run_tests: 900, finish: 150 } as Record<string, number>,
  /** A test run the runner's wall-clock guard killed took the whole guard (the stall-test-process fault). */
  testTimeout: WALL_CLOCK_MS,
  /** An unknown or failed tool. */
  otherTool: 50,
  /** Waiting for a response that never comes before retrying. */
  transportTimeout: 5000,
  grading: 1500,
};

export class SimClock {
  constructor(private ms: number) {}

  get now(): number {
    return this.ms;
  }

  advance(ms: number): void {
    this.ms += ms;
  }

  iso(): string {
    return new Date(this.ms).toISOString();
  }
}
