import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LoadedRollout, RegradeRow } from '../format';
import { toJsonl } from '../testing/builders';
import { runAgree } from './agree';
import type { AgreeDocument } from './agree/cells';
import { readJsonlFile } from './readFile';
import { artifactOf } from './regrade/artifact';
import { JOURNAL_FILE, writeTable } from './regrade/table';

const DEMO = resolve('public/demo/rollouts.jsonl');
const LENIENT = `node ${resolve('scripts/demo-grader-lenient.mjs')}`;
/** What scripts/demo-grader-lenient.mjs turns from fail to pass (an over-budget private test counted as passed). */
const LENIENT_FLIPS = new Set(['r-g1-02', 'r-g1-07']);
const temp = (name: string) => mkdtempSync(join(tmpdir(), `trajscope-agree-${name}-`));

/** Runs the command, returning its exit code and what it wrote. */
async function agree(argv: string[]): Promise<{ code: number; out: string; err: string }> {
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
  const code = await runAgree(argv);
  vi.restoreAllMocks();
  return { code, out, err };
}

afterEach(() => vi.restoreAllMocks());

/*
 * The lenient regrade's rows without running python: `trajscope regrade DEMO --grader LENIENT` was run once
 * (38 graded, no_artifact 6, flips fail → pass 2: r-g1-02 and r-g1-07, the rest as stored). Here each row is
 * the stored verdict, the two known flips, and no_artifact where `artifactOf` (the regrade's own check)
 * finds none, so the agreement numbers below follow from the records, not from a copy of the output.
 */
function lenientRows(loaded: readonly LoadedRollout[]): RegradeRow[] {
  return loaded.map(({ file, line, record }) => {
    const old = record.grading?.verdict ?? null;
    const artifact = artifactOf(record).ok;
    const flipped = LENIENT_FLIPS.has(record.rollout_id) ? 'pass' : old;
    return {
      file,
      line,
      rollout_id: record.rollout_id,
      attempt_id: record.attempt_id ?? null,
      task_id: record.task_id,
      old_reward: record.reward ?? null,
      old_verdict: old,
      new_reward: artifact ? (flipped === 'pass' ? 1 : 0) : null,
      new_verdict: artifact ? flipped : null,
      error_kind: artifact ? null : 'no_artifact',
      error: artifact ? null : 'no artifact stored',
      details: null,
      duration_ms: 1,
      grader: LENIENT,
    };
  });
}

let regradeDir = '';
let parquetDir = '';
let loaded: LoadedRollout[] = [];

beforeAll(async () => {
  await readJsonlFile(DEMO, (r) => {
    if (r.kind === 'rollout') loaded.push(r.value);
  });
  loaded = loaded.map((l) => ({ ...l, file: 'rollouts.jsonl' }));
  regradeDir = temp('journal');
  writeFileSync(join(regradeDir, JOURNAL_FILE), toJsonl(lenientRows(loaded)));
  parquetDir = temp('parquet');
  await writeTable(parquetDir, lenientRows(loaded));
});

const json = async (argv: string[]): Promise<AgreeDocument> => {
  const { code, out, err } = await agree([...argv, '--format', 'json']);
  expect(code, err).toBe(0);
  return JSON.parse(out);
};

describe('trajscope agree on the demo with the lenient regrade', () => {
  it('grader × lenient regrader shows exactly the two flips; rollouts with no artifact are excluded and counted', async () => {
    const doc = await json([DEMO, '--regrade', regradeDir, '--resamples', '200']);
    expect(doc.inputs).toMatchObject({ rollouts: 44, files: 1 });
    expect(doc.raters).toEqual([
      { id: 'grader', kind: 'grader', source: '', labelled: 38, excluded: [['no verdict', 6]] },
      { id: 'regrader 1', kind: 'regrader', source: LENIENT, labelled: 38, excluded: [['no_artifact', 6]] },
    ]);
    const [pair] = doc.pairs;
    expect(doc.pairs).toHaveLength(1);
    /*
     * 38 rollouts graded by both (the 6 without an artifact have no stored verdict either):
     *               lenient pass  fail | row
     *   grader pass       29       0   |  29
     *   grader fail        2       7   |   9
     *   col               31       7
     * p_o = 36/38; p_e = (29·31 + 9·7) / 38² = 962/1444; kappa = (36·38 - 962) / (1444 - 962) = 406/482
     */
    expect(pair?.overall).toMatchObject({
      labels: ['pass', 'fail'],
      counts: [
        [29, 0],
        [2, 7],
      ],
      n: 38,
    });
    expect(pair?.overall.agreement).toBeCloseTo(36 / 38, 12);
    expect(pair?.overall.kappa).toBeCloseTo(406 / 482, 12);
    expect(pair?.disagreements).toEqual([
      { key: 'r-g1-02#a-1', task: 'binary-search-001', a: 'fail', b: 'pass' },
      { key: 'r-g1-07#a-1', task: 'binary-search-001', a: 'fail', b: 'pass' },
    ]);
    // Every other task agrees throughout; lower-bound-001 is all pass from both: kappa undefined, said so.
    const tasks = Object.fromEntries((pair?.tasks ?? []).map((t) => [t.task, t.stats]));
    expect(Object.keys(tasks)).toEqual(['binary-search-001', 'insert-position-001', 'lower-bound-001', 'rotated-search-001']);
    expect(tasks['binary-search-001']?.counts).toEqual([
      [9, 0],
      [2, 4],
    ]);
    expect(tasks['insert-position-001']?.agreement).toBe(1);
    expect(tasks['lower-bound-001']).toMatchObject({ n: 8, agreement: 1, kappa: null, kappaUndefined: true, interval: null });
  });

  it('reads the regrade.parquet when there is no journal, to the same numbers', async () => {
    const [fromJournal, fromParquet] = [await json([DEMO, '--regrade', regradeDir]), await json([DEMO, '--regrade', parquetDir])];
    expect(fromParquet.raters).toEqual(fromJournal.raters);
    expect(fromParquet.pairs).toEqual(fromJournal.pairs);
  });

  it('the interval is the same for the same seed and moves with another', async () => {
    const interval = async (seed: string) => (await json([DEMO, '--regrade', regradeDir, '--seed', seed])).pairs[0]?.overall.interval;
    const one = await interval('1');
    expect(one).toHaveLength(2);
    expect(await interval('1')).toEqual(one);
    expect(await interval('3')).not.toEqual(one);
    const doc = await json([DEMO, '--regrade', regradeDir]);
    expect(doc.bootstrap).toEqual({ seed: 20261201, resamples: 2000, level: 0.95 });
  });
});

const HOSTILE = '<img src=x onerror=alert(1)>';

/** A reviews export and a shared review log for the demo, with a hostile reviewer name. */
function reviewFiles(): { exported: string; log: string } {
  const dir = temp('reviews');
  const at = (i: number) => `2026-12-01T10:0${i}:00Z`;
  const review = (rollout: string, verdict: string, reviewer: string, i: number) => ({
    rollout_id: rollout,
    attempt_id: 'a-1',
    verdict,
    note: '',
    reviewer,
    timestamp: at(i),
  });
  const exported = join(dir, 'reviews.jsonl');
  writeFileSync(
    exported,
    toJsonl([review('r-g1-02', 'disagree', 'ana', 1), review('r-g1-01', 'agree', 'ana', 2), review('r-g3-06', 'unsure', 'ana', 3)]),
  );
  mkdirSync(join(dir, 'run', '.trajscope'), { recursive: true });
  const log = join(dir, 'run', '.trajscope', 'reviews.jsonl');
  /** A digest as the log's validator takes it (format/reviews/reviewLog.ts). */
  const DIGEST = `sha256:${'a'.repeat(64)}`;
  const put = (r: object) => ({ op: 'put', digest: DIGEST, ...r });
  writeFileSync(
    log,
    `${toJsonl([
      put(review('r-g1-02', 'agree', HOSTILE, 1)),
      put(review('r-g1-02', 'disagree', HOSTILE, 2)),
      put(review('r-g4-02', 'agree', HOSTILE, 3)),
      put(review('r-g4-03', 'agree', HOSTILE, 4)),
      { op: 'remove', digest: DIGEST, rollout_id: 'r-g4-03', attempt_id: 'a-1', reviewer: HOSTILE, timestamp: at(5) },
    ])}{"op":"put","digest":"${DIGEST}","rollout_id":"r-1"}\n`,
  );
  return { exported, log };
}

describe('trajscope agree with reviews', () => {
  it('derives reviewer labels from an export and a folded review log; a bad log line is said', async () => {
    const { exported, log } = reviewFiles();
    const { code, out, err } = await agree([DEMO, '--reviews', exported, '--reviews', log, '--format', 'json', '--resamples', '50']);
    expect(code).toBe(0);
    expect(err).toContain(`${log}:6: attempt_id must be a string or null, got nothing`);
    const doc: AgreeDocument = JSON.parse(out);
    expect(doc.raters.map((r) => [r.id, r.labelled, r.excluded])).toEqual([
      ['grader', 38, [['no verdict', 6]]],
      [`reviewer ${HOSTILE}`, 2, []],
      ['reviewer ana', 2, [['unsure', 1]]],
    ]);
    // Ana disagrees with the grader's fail on r-g1-02 (her label: pass) and agrees on r-g1-01 (fail).
    const ana = doc.pairs.find((p) => p.b === 'reviewer ana');
    expect(ana?.overall.counts).toEqual([
      [0, 0],
      [1, 1],
    ]);
    // The log's last word on r-g1-02 is disagree; r-g4-03 was removed.
    const hostile = doc.pairs.find((p) => p.a === 'grader' && p.b === `reviewer ${HOSTILE}`);
    expect(hostile?.disagreements.map((d) => d.key)).toEqual(['r-g1-02#a-1']);
    expect(hostile?.overall.n).toBe(2);
  });

  it('escapes every untrusted value in the HTML and Markdown reports', async () => {
    const { log } = reviewFiles();
    const dir = temp('hostile');
    const records = join(dir, 'hostile.jsonl');
    // A task id that is markup, reviewed by a reviewer whose name is markup.
    const line = JSON.parse(readFileSync(DEMO, 'utf8').split('\n')[13] ?? '{}');
    writeFileSync(
      records,
      toJsonl([{ ...line, task_id: '<script>alert(2)</script>' }, JSON.parse(readFileSync(DEMO, 'utf8').split('\n')[36] ?? '{}')]),
    );
    const out = join(dir, 'report.html');
    expect((await agree([records, '--reviews', log, '--out', out, '--resamples', '20'])).code).toBe(0);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('reviewer &lt;img src=x onerror=alert(1)&gt;');
    expect(page).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(page).not.toMatch(/<img|<script|onerror=alert\(1\)>/i);
    expect(page).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    const md = await agree([records, '--reviews', log, '--format', 'md', '--resamples', '20']);
    expect(md.out).toContain('reviewer &lt;img src=x onerror=alert(1)&gt;');
    expect(md.out).not.toMatch(/<img|<script/i);
  });

  it('tells the format by --out, renders the pairs table, matrices and per-task table in Markdown', async () => {
    const { code, out } = await agree([DEMO, '--regrade', regradeDir, '--resamples', '100']);
    expect(code).toBe(0);
    expect(out).toMatch(/^# Agreement\n/);
    expect(out).toMatch(/\| grader × regrader 1 \| 38 \| 94\.7% \| 0\.842 \| \[[-0-9.]+, [-0-9.]+\] \| 0 \/ 0 \|/);
    expect(out).toContain('| **fail** | 2 | 7 |');
    expect(out).toContain('differ on: r-g1-02#a-1 (fail / pass), r-g1-07#a-1 (fail / pass)');
    expect(out).toContain('| lower-bound-001 | grader × regrader 1 | 8 | 100.0% | undefined | – |');
  });
});

describe('trajscope agree: bad input', () => {
  it('names a missing or unreadable input and exits 2', async () => {
    const missing = await agree([DEMO, '--regrade', '/no/such/regrade']);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.err).toContain('cannot read the regrade /no/such/regrade: no such file or directory');
    const empty = temp('empty');
    expect((await agree([DEMO, '--regrade', empty])).err).toContain(`the regrade ${empty} has no regrade.journal or regrade.parquet`);
    expect((await agree([DEMO, '--reviews', '/no/such/reviews.jsonl'])).err).toContain(
      'cannot read the reviews /no/such/reviews.jsonl: no such file or directory',
    );
    const noRecords = await agree(['/no/such/rollouts.jsonl']);
    expect(noRecords).toMatchObject({ code: 2 });
    expect(noRecords.err).toContain('cannot read /no/such/rollouts.jsonl');
  });

  it('exits 2 on a usage error', async () => {
    for (const argv of [
      [],
      [DEMO, '--format', 'pdf'],
      [DEMO, '--seed', '-1'],
      [DEMO, '--seed', 'x'],
      [DEMO, '--resamples', '0'],
      [DEMO, '--nope'],
    ]) {
      const r = await agree(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toContain('usage: trajscope agree');
    }
  });
});
