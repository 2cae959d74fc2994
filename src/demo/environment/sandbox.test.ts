import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { taskById } from '../tasks';
import { InfraError } from './errors';
import { Sandbox } from './sandbox';

const task = taskById('binary-search-001');
const open: Sandbox[] = [];
async function sandbox(): Promise<Sandbox> {
  const s = await Sandbox.create(task);
  open.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.dispose()));
});

const edit = (old: string, replacement: string) => ({ path: 'search.py', old, new: replacement });

describe('sandbox', () => {
  it('gives each rollout its own copy: an edit in one is not seen by another', async () => {
    const [a, b] = [await sandbox(), await sandbox()];
    expect(a.root).not.toBe(b.root);
    expect((await a.execute('c-1', 'edit', edit('low = mid', 'low = mid + 1'))).observation.text).toBe('patch applied');
    expect((await a.execute('c-2', 'read_file', { path: 'search.py' })).observation.text).toContain('low = mid + 1');
    expect((await b.execute('c-1', 'read_file', { path: 'search.py' })).observation.text).toBe(task.files.get('search.py'));
    const fresh = await sandbox();
    expect(await fresh.diff()).toBe('');
  });

  it('edits exactly one occurrence and reports absent or ambiguous text as an error observation', async () => {
    const s = await sandbox();
    expect((await s.execute('c-1', 'edit', edit('nowhere', 'x'))).observation).toMatchObject({
      status: 'error',
      text: 'error: old text not found in search.py',
    });
    const twice = await s.execute('c-2', 'edit', edit('mid', 'm'));
    expect(twice.observation.status).toBe('error');
    expect(twice.observation.text).toMatch(/occurs \d+ times/);
    expect((await s.execute('c-3', 'read_file', { path: '../etc/passwd' })).observation.status).toBe('error');
  });

  it('runs the dev tests in python3 and reports a looping search as over budget, not as a failure', async () => {
    const s = await sandbox();
    await s.execute('c-1', 'edit', edit('low = mid', 'low = mid + 1'));
    const run = await s.execute('c-2', 'run_tests', {});
    expect(run.tests).toEqual({ passed: ['find 3', 'find 6'], failed: [], over_budget: ['find 0'] });
    expect(run.observation).toMatchObject({ status: 'budget_exceeded', exit_code: 1 });
    expect(run.observation.text).toContain('find 0: over budget');
    expect(run.observation.text).not.toContain(s.root);
  });

  it('executes a call id once: a repeat returns the stored result without running the tool', async () => {
    const s = await sandbox();
    const first = await s.execute('c-1', 'edit', edit('low = mid', 'low = mid + 1'));
    const again = await s.execute('c-1', 'edit', edit('low = mid', 'low = mid + 1'));
    expect(again).toEqual(first);
    expect(s.executions('c-1')).toBe(1);
    // Run twice, the edit would have written "low = mid + 1 + 1".
    expect((await s.execute('c-2', 'read_file', { path: 'search.py' })).observation.text).toContain('low = mid + 1\n');
  });

  it('turns a vanished sandbox into an infrastructure error, and dispose removes the directory', async () => {
    const s = await sandbox();
    await rm(s.root, { recursive: true });
    await expect(s.execute('c-1', 'read_file', { path: 'search.py' })).rejects.toBeInstanceOf(InfraError);
    const t = await sandbox();
    await t.dispose();
    expect(existsSync(t.root)).toBe(false);
  });
});
