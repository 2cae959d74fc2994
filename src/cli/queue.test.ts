import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseReviewQueue } from '../format';
import { runQueue } from './queue';
import { JOURNAL_FILE } from './regrade/table';

const DEMO = resolve('public/demo/rollouts.jsonl');
const temp = () => mkdtempSync(join(tmpdir(), 'trajscope-queue-'));

/** A run directory holding the demo's 44 rollouts (29 pass, 9 fail, 6 without a verdict). */
function run(): string {
  const dir = join(temp(), 'run');
  mkdirSync(dir);
  copyFileSync(DEMO, join(dir, 'rollouts.jsonl'));
  return dir;
}

async function queue(argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => {
    err += String(s);
    return true;
  });
  const code = await runQueue(argv);
  vi.restoreAllMocks();
  return { code, err };
}

afterEach(() => vi.restoreAllMocks());

const queueOf = (dir: string) => parseReviewQueue(readFileSync(join(dir, '.trajscope', 'review-queue.json'), 'utf8'));

/** A regrade that flips two stored verdicts and fails on a third (an error is no disagreement). */
function regrade(): string {
  const dir = temp();
  const row = (rollout_id: string, line: number, new_verdict: string | null, error_kind: string | null) => ({
    file: 'rollouts.jsonl',
    line,
    rollout_id,
    attempt_id: 'a-1',
    task_id: 't',
    old_reward: 0,
    old_verdict: 'fail',
    new_reward: null,
    new_verdict,
    error_kind,
    error: null,
    details: null,
    duration_ms: 5,
    grader: 'lenient',
  });
  const rows = [row('r-g1-02', 16, 'pass', null), row('r-g1-07', 19, 'pass', null), row('r-g1-03', 15, null, 'timeout')];
  writeFileSync(join(dir, JOURNAL_FILE), rows.map((r) => JSON.stringify(r)).join('\n'));
  return dir;
}

describe('trajscope queue', () => {
  it('writes RUN/.trajscope/review-queue.json: disagreements, then scanner hits, then verdict strata, given round robin', async () => {
    const dir = run();
    const { code, err } = await queue([dir, '--reviewers', 'ana, ben,cy', '--size', '20', '--regrade', regrade(), '--rules', 'default']);
    expect(err).toMatch(/20 of 44 rollouts queued for 3 reviewers: 2 disagreements, \d+ scanner hits, \d+ by grader verdict/);
    expect(code).toBe(0);
    const q = queueOf(dir);
    expect(q.reviewers).toEqual(['ana', 'ben', 'cy']);
    expect(q.items).toHaveLength(20);
    expect(q.items.slice(0, 2).map((i) => [i.rollout, i.reason, i.file])).toEqual([
      ['r-g1-02#a-1', 'disagreement', 'rollouts.jsonl'],
      ['r-g1-07#a-1', 'disagreement', 'rollouts.jsonl'],
    ]);
    const tiers = q.items.map((i) => i.reason.split(':')[0]);
    expect(tiers.indexOf('stratum')).toBeGreaterThan(tiers.lastIndexOf('scanner'));
    expect(tiers.lastIndexOf('disagreement')).toBeLessThan(tiers.indexOf('scanner'));
    expect(q.items.map((i) => i.reviewers)).toEqual(q.items.map((_, i) => [['ana', 'ben', 'cy'][i % 3]]));
    // Only the queue is left in .trajscope: the file written beside it was renamed into place.
    expect(readdirSync(join(dir, '.trajscope'))).toEqual(['review-queue.json']);
  });

  it('chooses the same queue for the same seed, another for another, and K reviewers an item with --overlap K', async () => {
    const [a, b, c] = [run(), run(), run()];
    await queue([a, '--reviewers', 'ana,ben', '--size', '10', '--seed', '9']);
    await queue([b, '--reviewers', 'ana,ben', '--size', '10', '--seed', '9']);
    await queue([c, '--reviewers', 'ana,ben', '--size', '10', '--seed', '10', '--overlap', '2']);
    const items = (dir: string) => queueOf(dir).items.map((i) => i.rollout);
    expect(items(b)).toEqual(items(a));
    expect(items(c)).not.toEqual(items(a));
    expect(queueOf(c).items.every((i) => i.reviewers.join() === 'ana,ben')).toBe(true);
    const reasons = queueOf(a).items.map((i) => i.reason);
    expect(new Set(reasons)).toEqual(new Set(['stratum:pass', 'stratum:fail', 'stratum:none']));
  });

  it('exits 2 naming the option that is wrong, and writes nothing', async () => {
    const dir = run();
    const cases: [string[], RegExp][] = [
      [[dir, '--size', '5'], /--reviewers is required/],
      [[dir, '--reviewers', 'ana'], /--size is required/],
      [[dir, '--reviewers', 'ana', '--size', '0'], /--size must be a positive whole number/],
      [[dir, '--reviewers', 'ana', '--size', 'ten'], /--size must be/],
      [[dir, '--reviewers', 'ana,ben', '--size', '5', '--overlap', '3'], /--overlap must be at most the number of reviewers \(2\)/],
      [[dir, '--reviewers', 'ana,,ben', '--size', '5'], /--reviewers: a name is empty/],
      [[dir, '--reviewers', 'ana,ana', '--size', '5'], /--reviewers: "ana" is given twice/],
      [[dir, '--reviewers', 'ana', '--size', '5', '--seed=-1'], /--seed must be a whole number/],
      [[dir, '--reviewers', 'ana', '--size', '5', '--rules', join(dir, 'none.json')], /--rules .*none\.json/],
      [[dir, '--reviewers', 'ana', '--size', '5', '--colour'], /--colour/],
      [[join(dir, 'rollouts.jsonl'), '--reviewers', 'ana', '--size', '5'], /name the output with --out FILE/],
      [[join(dir, 'missing'), '--reviewers', 'ana', '--size', '5', '--out', join(dir, 'q.json')], /missing: no such file/],
      [[dir, '--reviewers', 'ana', '--size', '5', '--regrade', join(dir, 'nowhere')], /cannot read the regrade/],
    ];
    for (const [argv, message] of cases) {
      const { code, err } = await queue(argv);
      expect([code, err], argv.join(' ')).toEqual([2, expect.stringMatching(message)]);
    }
    expect(existsSync(join(dir, '.trajscope'))).toBe(false);
    expect(existsSync(join(dir, 'q.json'))).toBe(false);
  });

  it('replaces a queue by a rename: a reader of the old file still reads it whole', async () => {
    const dir = run();
    const out = join(temp(), 'queue.json');
    writeFileSync(out, 'the old queue');
    const held = openSync(out, 'r');
    const { code } = await queue([join(dir, 'rollouts.jsonl'), '--reviewers', 'ana', '--size', '3', '--out', out]);
    expect(code).toBe(0);
    expect(parseReviewQueue(readFileSync(out, 'utf8')).items).toHaveLength(3);
    const old = Buffer.alloc(64);
    expect(old.toString('utf8', 0, readSync(held, old, 0, 64, 0))).toBe('the old queue');
  });

  it('refuses to write through a link, at the file or at .trajscope', async () => {
    const dir = run();
    const elsewhere = temp();
    const target = join(elsewhere, 'target.json');
    writeFileSync(target, 'not yours');
    symlinkSync(target, join(dir, 'linked.json'));
    const linked = await queue([dir, '--reviewers', 'ana', '--size', '3', '--out', join(dir, 'linked.json')]);
    expect([linked.code, linked.err]).toEqual([2, expect.stringMatching(/linked\.json is a symbolic link: refused/)]);
    expect(readFileSync(target, 'utf8')).toBe('not yours');

    symlinkSync(elsewhere, join(dir, '.trajscope'));
    const state = await queue([dir, '--reviewers', 'ana', '--size', '3']);
    expect([state.code, state.err]).toEqual([2, expect.stringMatching(/\.trajscope is a symbolic link: refused/)]);
    expect(readdirSync(elsewhere)).toEqual(['target.json']);
  });
});
