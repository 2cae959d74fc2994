import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runModes } from './modes';

const RUN = fileURLToPath(new URL('../../public/demo/run/', import.meta.url));

/** Runs the command, returning its exit code and what it wrote. */
async function modes(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => {
    out += String(s);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err += String(s);
    return true;
  });
  const code = await runModes(argv);
  vi.restoreAllMocks();
  return { code, out, err };
}

afterEach(() => vi.restoreAllMocks());

describe('trajscope modes', () => {
  it('prints the demo run’s modes ranked by count with their share per training step', async () => {
    const { code, out } = await modes([RUN]);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe('101 of 384 rollouts failed or were excluded; 18 failure modes');
    expect(lines[2]).toMatch(/^count {2}share {2}s0-3 {2}s4-7 .* mode \(share by training step\)$/);
    expect(lines[3]).toMatch(/^ {3}60 {4}16% .*finished \(fail\) · grader: <n> of <n> private tests failed$/);
    expect(out).toContain('invalid_call · run_shell: error: unknown tool <str>; the harness rejected the call');
  });

  it('writes the modes as JSON', async () => {
    const { code, out } = await modes([RUN, '--json']);
    expect(code).toBe(0);
    const result = JSON.parse(out);
    expect(result.rollouts).toBe(384);
    expect(result.modes[0].count).toBe(60);
    expect(result.modes[0].steps[0]).toEqual({ step: 0, count: 9, rollouts: 32, share: 9 / 32 });
    const counts: number[] = result.modes.map((m: { count: number }) => m.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('exits 2 for a missing file or a bad option', async () => {
    expect((await modes(['/no/such/file.jsonl'])).code).toBe(2);
    expect((await modes([RUN, '--max-line-bytes', '0'])).code).toBe(2);
    expect((await modes([])).code).toBe(2);
  });
});
