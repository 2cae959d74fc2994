import { describe, expect, it } from 'vitest';
import { repoDiff } from '../environment/diff';
import { taskById } from '../tasks';
import { applyArtifact, grade } from './grader';

const task = taskById('binary-search-001');
const original = task.files.get('search.py') ?? '';
const patched = (text: string) => repoDiff(task.files, new Map([['search.py', text]]));

describe('grader', () => {
  it('passes a correct fix, with the private test names and a digest of the artifact', async () => {
    const artifact = patched(original.replace('low = mid', 'low = mid + 1').replace('high = mid', 'high = mid - 1'));
    const g = await grade(task, artifact);
    expect(g.verdict).toBe('pass');
    expect(g.private_tests?.failed).toEqual([]);
    expect(g.private_tests?.passed).toHaveLength(4);
    expect(g.artifact).toBe(artifact);
    expect(g.artifact_digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('fails a fix that passes the dev tests but breaks the contract, and an empty submission', async () => {
    const distracted = original
      .replace('low = mid', 'low = mid + 1')
      .replace('high = mid', 'high = mid - 1')
      .replace('low <= high', 'low < high');
    expect((await grade(task, patched(distracted))).verdict).toBe('fail');
    const empty = await grade(task, '');
    expect(empty.verdict).toBe('fail');
    expect(empty.private_tests?.failed).toContain('hidden absent between elements');
  });

  it('applies the artifact to a fresh copy of the task files and rejects one that does not apply', () => {
    const fixed = original.replace('low = mid', 'low = mid + 1');
    expect(applyArtifact(task, patched(fixed))?.get('search.py')).toBe(fixed);
    expect(applyArtifact(task, patched(fixed).replace('-            low = mid', '-            low = lo'))).toBeNull();
  });
});
