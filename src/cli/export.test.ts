import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parquetReadObjects } from 'hyparquet';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LintReport, LintSession } from '../analysis';
import { parseLine, type Rollout, reviewKey } from '../format';
import { indexRowFrom } from '../format/runIndex/columns';
import { rolloutKeys } from '../load/rolloutKeys';
import { buildRollout } from '../testing/builders';
import { runExport } from './export';
import { readJsonlFile } from './readFile';

/*
 * `trajscope export` on the committed demo data: the run (public/demo/run, 24 gzip files) and the
 * single-file demo (public/demo/rollouts.jsonl). What each export should hold is counted here from lint's
 * own report of the same files, not from the export's code.
 */
const RUN = fileURLToPath(new URL('../../public/demo/run/', import.meta.url));
const ROLLOUTS = fileURLToPath(new URL('../../public/demo/rollouts.jsonl', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'trajscope-export-'));

interface Provenance {
  file: string;
  line: number;
  rollout_key: string;
  where?: string;
}

async function exportTo(name: string, ...args: string[]): Promise<{ code: number; stderr: string; out: string }> {
  const out = join(dir, name);
  const errors: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    errors.push(String(chunk));
    return true;
  });
  try {
    const code = await runExport([...args, '--out', out]);
    return { code, stderr: errors.join(''), out };
  } finally {
    spy.mockRestore();
  }
}

const jsonLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The demo run's files, each as its lines. */
const runLines = new Map(
  readdirSync(RUN)
    .filter((n) => !n.startsWith('.'))
    .map((n) => [
      n,
      gunzipSync(readFileSync(join(RUN, n)))
        .toString('utf8')
        .split('\n'),
    ]),
);

/** The record a provenance names, read again from its file: it must be the rollout whose key it carries. */
function recordAt(p: Provenance, lines: Map<string, string[]>): Rollout {
  const text = lines.get(p.file)?.[p.line - 1];
  const r = text === undefined ? null : parseLine(text, p.line, p.file);
  if (r?.kind !== 'rollout') throw new Error(`${p.file}:${p.line} is not a rollout`);
  expect(reviewKey({ rollout_id: r.value.record.rollout_id, attempt_id: r.value.record.attempt_id ?? null })).toBe(p.rollout_key);
  return r.value.record;
}

async function lintOf(files: { path: string; name: string }[]): Promise<LintReport> {
  const session = new LintSession();
  for (const f of files) await readJsonlFile(f.path, (r) => session.add(r), {}, { name: f.name });
  return session.report(true);
}

let runReport: LintReport;
let singleReport: LintReport;
beforeAll(async () => {
  runReport = await lintOf([...runLines.keys()].sort().map((name) => ({ path: join(RUN, name), name })));
  singleReport = await lintOf([{ path: ROLLOUTS, name: ROLLOUTS }]);
});

afterEach(() => {
  // A finished export leaves no partial file beside its output.
  expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
});

describe('trajscope export', () => {
  it('--as dpo gives one pair per group with a reward gap, each side resolving to its source line', async () => {
    // By hand from lint's group summaries: a group has a gap when its in-signal rewards are not all equal.
    const withGap = runReport.groups.filter((g) => g.std !== null && g.std > 0);
    expect(withGap.length).toBeGreaterThan(0);
    const { code, stderr, out } = await exportTo('run.dpo.jsonl', RUN, '--as', 'dpo');
    expect(code).toBe(0);
    const pairs = jsonLines(out);
    expect(pairs).toHaveLength(withGap.length);
    expect(new Set(pairs.map((p) => p.group_id))).toEqual(new Set(withGap.map((g) => g.group_id)));
    for (const pair of pairs) {
      const { chosen, rejected, where } = pair.provenance as { chosen: Provenance; rejected: Provenance; where: string };
      expect(where).toBe('');
      const [best, worst] = [recordAt(chosen, runLines), recordAt(rejected, runLines)];
      expect([best.reward, worst.reward]).toEqual([pair.reward_chosen, pair.reward_rejected]);
      expect(best.reward).toBeGreaterThan(worst.reward ?? Number.POSITIVE_INFINITY);
      expect([best.group_id, worst.group_id]).toEqual([pair.group_id, pair.group_id]);
      expect(best.policy_version).toBe(worst.policy_version);
      for (const r of [best, worst]) expect(['infra_failure', 'cancelled']).not.toContain(r.termination);
      // TRL's conversational form: a shared prompt, then each side starts with the model's turn.
      const [prompt, yes, no] = [pair.prompt, pair.chosen, pair.rejected] as { role: string }[][];
      expect(prompt?.map((m) => m.role).slice(0, 2)).toEqual(['system', 'user']);
      expect([yes?.[0]?.role, no?.[0]?.role]).toEqual(['assistant', 'assistant']);
    }
    expect(stderr).toContain(`${withGap.length} pairs written`);
    expect(stderr).toContain(`${runReport.groups.length - withGap.length} groups with no reward gap`);
  }, 60_000);

  it('--as sft holds rewarded rollouts in the signal only, never an excluded one', async () => {
    const rewarded = singleReport.rollouts.filter((r) => r.in_signal && (r.reward ?? 0) > 0);
    const excluded = singleReport.rollouts.filter((r) => !r.in_signal);
    expect(excluded.map((r) => r.termination).sort()).toEqual(['cancelled', 'infra_failure', 'infra_failure']);
    const { code, stderr, out } = await exportTo('single.sft.jsonl', ROLLOUTS, '--as', 'sft');
    expect(code).toBe(0);
    const lines = [ROLLOUTS, readFileSync(ROLLOUTS, 'utf8').split('\n')] as const;
    const conversations = jsonLines(out);
    for (const c of conversations) {
      const record = recordAt(c.provenance as Provenance, new Map([lines]));
      expect(['infra_failure', 'cancelled']).not.toContain(record.termination);
      expect(record.reward).toBeGreaterThan(0);
      const messages = c.messages as { role: string; content: string }[];
      expect(messages.at(-1)?.role).toBe('assistant');
    }
    const skipped = rewarded.length - conversations.length;
    // What is not written is said: the excluded, the unrewarded, and any rollout with no text to train on.
    expect(stderr).toContain(`${excluded.length} rollouts excluded`);
    if (skipped > 0) expect(stderr).toMatch(/a context rewritten|no token text|no model turn|cannot be told apart/);
    expect(conversations.length).toBeGreaterThan(0);

    const run = await exportTo('run.sft.jsonl', RUN, '--as', 'sft');
    for (const c of jsonLines(run.out)) {
      const record = recordAt(c.provenance as Provenance, runLines);
      expect(['infra_failure', 'cancelled']).not.toContain(record.termination);
    }
    const runRewarded = runReport.rollouts.filter((r) => r.in_signal && (r.reward ?? 0) > 0);
    expect(jsonLines(run.out)).toHaveLength(runRewarded.length);
  }, 60_000);

  it("--where 'term:budget_exhausted' selects exactly lint's count of that termination, each record as it was read", async () => {
    const budget = runReport.rollouts.filter((r) => r.termination === 'budget_exhausted');
    expect(budget.length).toBeGreaterThan(0);
    const { code, stderr, out } = await exportTo('run.budget.jsonl', RUN, '--where', 'term:budget_exhausted', '--as', 'v1');
    expect(code).toBe(0);
    const records = jsonLines(out);
    expect(records).toHaveLength(budget.length);
    for (const { provenance, ...record } of records) {
      const p = provenance as Provenance;
      expect(p.where).toBe('term:budget_exhausted');
      expect(record).toEqual(JSON.parse(runLines.get(p.file)?.[p.line - 1] ?? 'null'));
    }
    expect(stderr).toContain(`${runReport.rollouts.length} rollouts read, ${budget.length} matched; ${budget.length} records written`);
  }, 60_000);

  it('--as parquet writes the index rows of the matching rollouts, with their key and the query as columns', async () => {
    const matching = runReport.rollouts.filter((r) => r.reward !== null && r.reward > 0.5);
    const { code, out } = await exportTo('run.parquet', RUN, '--where', 'reward>0.5', '--as', 'parquet');
    expect(code).toBe(0);
    const bytes = readFileSync(out);
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    });
    expect(rows).toHaveLength(matching.length);
    for (const row of rows) {
      const index = indexRowFrom(row);
      expect(index.reward).toBeGreaterThan(0.5);
      expect(row.where).toBe('reward>0.5');
      const record = recordAt({ file: index.file, line: index.line, rollout_key: String(row.rollout_key) }, runLines);
      expect(index.rollout_id).toBe(record.rollout_id);
      expect(index.training_step).toBe(record.training_step);
    }
  }, 60_000);

  it('refuses a query that does not parse (exit 2, naming the term) and writes nothing', async () => {
    const { code, stderr, out } = await exportTo('bad.jsonl', ROLLOUTS, '--where', 'reward>0 colour:red', '--as', 'v1');
    expect(code).toBe(2);
    expect(stderr).toContain('"colour:" at 10 is not a term');
    expect(stderr).toContain(`\n  reward>0 colour:red\n  ${' '.repeat(9)}^`);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses an unknown format, and an input it cannot read, before writing anything', async () => {
    expect((await exportTo('x.jsonl', ROLLOUTS, '--as', 'csv')).code).toBe(2);
    const missing = await exportTo('y.jsonl', join(dir, 'absent.jsonl'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('absent.jsonl');
    expect(existsSync(missing.out)).toBe(false);
  });
});

describe('rollout keys of shared ids, formed in one read (KeysAsRead)', () => {
  const runDir = join(dir, 'dups');
  mkdirSync(runDir, { recursive: true });
  // Two files; r-1 twice in a.jsonl and once in b.jsonl, r-2 once; a record whose own unknown field names a
  // shared key as `rollout_key` (only provenance is a key to put right).
  // A transcript, so sft and dpo have a conversation to write (the records' ids have no token strings).
  const said = (answer: string) => ({
    transcript: [
      { role: 'user', content: 'Find the bug.' },
      { role: 'assistant', content: answer },
    ],
  });
  const rollout = (id: string, group: string, reward: number, more: object = {}) =>
    buildRollout({ rollout_id: id, attempt_id: null, group_id: group, reward, ...said(`answer ${reward}`), ...more } as never);
  const a = [rollout('r-1', 'g', 1, { extra: { rollout_key: 'r-1' } }), rollout('r-2', 'g', 0), rollout('r-1', 'g', 0.5)];
  const b = [rollout('r-1', 'h', 1)];
  writeFileSync(join(runDir, 'a.jsonl'), a.map((r) => `${JSON.stringify(r)}\n`).join(''));
  writeFileSync(join(runDir, 'b.jsonl'), b.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const expected = rolloutKeys([
    { file: 'a.jsonl', line: 1, rollout_id: 'r-1', attempt_id: null },
    { file: 'a.jsonl', line: 2, rollout_id: 'r-2', attempt_id: null },
    { file: 'a.jsonl', line: 3, rollout_id: 'r-1', attempt_id: null },
    { file: 'b.jsonl', line: 1, rollout_id: 'r-1', attempt_id: null },
  ]);

  it('gives every copy, the first included, `@file:line`, as the app does; v1, sft and parquet agree', async () => {
    expect(expected).toEqual(['r-1@a.jsonl:1', 'r-2', 'r-1@a.jsonl:3', 'r-1@b.jsonl:1']);
    const v1 = await exportTo('dups-v1.jsonl', runDir, '--as', 'v1');
    expect(v1.code).toBe(0);
    const lines = jsonLines(v1.out);
    expect(lines.map((l) => (l.provenance as Provenance).rollout_key)).toEqual(expected);
    // The record's own field is left as it was written.
    expect((lines[0]?.extra as Record<string, unknown> | undefined)?.rollout_key).toBe('r-1');
    const sft = await exportTo('dups-sft.jsonl', runDir, '--as', 'sft');
    expect(jsonLines(sft.out).map((l) => (l.provenance as Provenance).rollout_key)).toEqual([
      'r-1@a.jsonl:1',
      'r-1@a.jsonl:3',
      'r-1@b.jsonl:1',
    ]);
    const parquet = await exportTo('dups.parquet', runDir, '--as', 'parquet');
    const rows = await parquetReadObjects({ file: readFileSync(parquet.out).buffer as ArrayBuffer });
    expect(rows.map((r) => r.rollout_key)).toEqual(expected);
  });

  it('puts right a pair whose first rollout turned out shared (dpo)', async () => {
    const dpo = await exportTo('dups-dpo.jsonl', runDir, '--as', 'dpo');
    expect(dpo.code).toBe(0);
    const pairs = jsonLines(dpo.out).map((l) => l.provenance as { chosen: Provenance; rejected: Provenance });
    expect(pairs.map((p) => [p.chosen.rollout_key, p.rejected.rollout_key])).toEqual([['r-1@a.jsonl:1', 'r-2']]);
  });

  it('an input of no format Trajscope reads leaves nothing written, naming it (exit 2), after the others were read', async () => {
    const other = join(dir, 'dups-other');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'a.jsonl'), a.map((r) => `${JSON.stringify(r)}\n`).join(''));
    writeFileSync(join(other, 'z.jsonl'), 'hello\n');
    const r = await exportTo('dups-unread.jsonl', other, '--as', 'v1');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/z\.jsonl: .*not a format Trajscope reads/);
    expect(r.stderr).toContain('nothing written');
    expect(existsSync(r.out)).toBe(false);
    expect(readdirSync(dir).filter((n) => n.includes('dups-unread'))).toEqual([]);
  });
});

describe('files the export writes beside its output are its own', () => {
  it('a link planted where the pending file or the key fix-up goes is refused; the file it points at is untouched', async () => {
    const outside = join(mkdtempSync(join(tmpdir(), 'trajscope-outside-')), 'precious.txt');
    writeFileSync(outside, 'keep me\n');
    const runDir = join(dir, 'dups');
    for (const suffix of ['.partial', '.partial.keys']) {
      const name = `planted${suffix.replace(/\./g, '-')}.jsonl`;
      const planted = join(dir, `.${name}.${process.pid}${suffix}`);
      symlinkSync(outside, planted);
      // Shared ids, so the key fix-up runs (dups/ from the tests above).
      const r = await exportTo(name, runDir, '--as', 'v1');
      expect(r.code, suffix).toBe(2);
      expect(r.stderr).toContain('exists already (a file or a link left there): refused');
      expect(readFileSync(outside, 'utf8')).toBe('keep me\n');
      expect(existsSync(r.out)).toBe(false);
      // The planted link is not the export's to remove either; the test removes it (afterEach wants none).
      expect(lstatSync(planted).isSymbolicLink()).toBe(true);
      unlinkSync(planted);
    }
  });
});
