type ObservationStatus = 'ok' | 'error' | 'timeout' | 'budget_exceeded';

/** What a tool returns to the model, plus the exit code when a process ran. */
export interface Observation {
  text: string;
  status: ObservationStatus;
  exit_code?: number | null;
  truncated: boolean;
}

export interface TestLists {
  passed: string[];
  failed: string[];
  over_budget: string[];
}

export interface ToolResult {
  observation: Observation;
  /** run_tests only. */
  tests?: TestLists;
  /** finish only: the submitted unified diff. Never shown to the model. */
  artifact?: string;
}
