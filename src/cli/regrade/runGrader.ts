import { spawn } from 'node:child_process';

/** What a grader printed, read: its reward, verdict and details, or why it is no verdict. */
export type GraderOutput = { ok: true; reward: number; verdict: string | null; details: string | null } | { ok: false; message: string };

/**
 * Reads a grader's stdout: one JSON object with a finite number `reward`, optionally a string `verdict`
 * and any `details` (kept as JSON text). The whole output is tried first, then its last non-blank line,
 * so a grader may log lines before its verdict.
 */
export function parseGraderOutput(stdout: string): GraderOutput {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  const candidates = [stdout, lines[lines.length - 1] ?? ''];
  for (const text of candidates) {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      continue;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const reward = 'reward' in v ? v.reward : undefined;
    if (typeof reward !== 'number' || !Number.isFinite(reward)) return { ok: false, message: 'the verdict has no finite number "reward"' };
    const verdict = 'verdict' in v ? v.verdict : undefined;
    if (verdict !== undefined && verdict !== null && typeof verdict !== 'string')
      return { ok: false, message: '"verdict" is not a string' };
    const details = 'details' in v && v.details !== undefined ? JSON.stringify(v.details) : null;
    return { ok: true, reward, verdict: verdict ?? null, details };
  }
  const shown = stdout.trim().slice(0, 120);
  return { ok: false, message: shown === '' ? 'printed nothing' : `printed no JSON verdict: ${JSON.stringify(shown)}` };
}

export interface GraderRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** stdout passed OUTPUT_LIMIT and the grader was stopped. */
  overflow: boolean;
}

/** Bytes of stdout (and of stderr) kept: a verdict is small, a grader printing without end is stopped. */
const OUTPUT_LIMIT = 1 << 20;

/**
 * Runs the user's grader command through the shell in `cwd`, with `input` on stdin, in a process group of
 * its own: at the timeout, on abort, and once it exits (so nothing it started lingers), the whole group
 * is killed.
 */
export function runGrader(
  command: string,
  options: { cwd: string; env: Record<string, string>; input: string; timeoutMs: number; signal?: AbortSignal },
): Promise<GraderRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, cwd: options.cwd, env: options.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = { stdout: '', stderr: '', timedOut: false, aborted: false, overflow: false };
    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    const take = (key: 'stdout' | 'stderr') => (d: string) => {
      if (out[key].length + d.length > OUTPUT_LIMIT) {
        out[key] += d.slice(0, OUTPUT_LIMIT - out[key].length);
        if (key === 'stdout' && !out.overflow) {
          out.overflow = true;
          killGroup();
        }
      } else out[key] += d;
    };
    child.stdout.setEncoding('utf8').on('data', take('stdout'));
    child.stderr.setEncoding('utf8').on('data', take('stderr'));
    // A grader that never reads its stdin closes the pipe: that is its right, not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input);
    const timer = setTimeout(() => {
      out.timedOut = true;
      killGroup();
    }, options.timeoutMs);
    const onAbort = () => {
      out.aborted = true;
      killGroup();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    child.on('exit', killGroup);
    child.on('error', (e) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(e);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...out, exitCode, signal });
    });
  });
}
