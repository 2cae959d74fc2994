import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUNNER = fileURLToPath(new URL('./runner.py', import.meta.url));

/**
 * Line events one test may use before the runner stops it. The tests call the function a handful of
 * times on arrays of at most ~40 elements, a few hundred line events; a loop that makes no progress
 * reaches this in about 10 ms.
 */
const LINE_BUDGET = 10_000;

/** Wall-clock guard on the whole run; the line budget normally ends a stuck test long before. */
export const WALL_CLOCK_MS = 15_000;

type Outcome = 'passed' | 'failed' | 'over_budget';

export interface TestResult {
  test: string;
  outcome: Outcome;
  detail: string | null;
}

export interface RunResult {
  results: TestResult[];
  exitCode: number | null;
  /** Signal that ended the process, when it did not exit by itself. */
  signal: NodeJS.Signals | null;
  /** Killed by the wall-clock guard. */
  timedOut: boolean;
  /** Killed because the caller's signal was aborted. */
  aborted: boolean;
  stderr: string;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Called with the child right after spawn; fault injection uses it to kill the process. */
  onSpawn?: (child: ChildProcess) => void;
}

/** Runs a Python test file with runner.py in a real `python3` subprocess, `cwd` being the repo under test. */
export function runPythonTests(cwd: string, testsPath: string, options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', ['-I', '-B', RUNNER, testsPath, String(LINE_BUDGET)], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C.UTF-8' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let aborted = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, WALL_CLOCK_MS);
    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ results: parseResults(stdout), exitCode, signal, timedOut, aborted, stderr });
    });
    options.onSpawn?.(child);
  });
}

function isOutcome(v: unknown): v is Outcome {
  return v === 'passed' || v === 'failed' || v === 'over_budget';
}

/** One JSON object per line; a line cut short by a kill is dropped rather than guessed at. */
function parseResults(stdout: string): TestResult[] {
  const out: TestResult[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    const test = 'test' in v ? v.test : undefined;
    const outcome = 'outcome' in v ? v.outcome : undefined;
    const detail = 'detail' in v ? v.detail : undefined;
    if (typeof test === 'string' && isOutcome(outcome)) out.push({ test, outcome, detail: typeof detail === 'string' ? detail : null });
  }
  return out;
}
