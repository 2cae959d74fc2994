import { plural, type QueueCandidate, scannerRuleIds, summarizeRollout } from '../../analysis';
import { type ReadOptions, type RegradeRow, reviewKey, type ScanRule } from '../../format';
import { rolloutKeys } from '../../load/rolloutKeys';
import { SourceError, type Warn } from '../agree/sources';
import { readJsonlFile } from '../readFile';
import type { Input } from '../runIndex/inputs';

/** Each rollout's regrade verdicts, by review key (as agreement joins them: docs/agreement.md). */
function regradeVerdicts(rows: readonly RegradeRow[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of rows) {
    if (r.error_kind !== null || r.new_verdict === null) continue;
    const key = reviewKey(r);
    const list = out.get(key);
    if (list) list.push(r.new_verdict);
    else out.set(key, [r.new_verdict]);
  }
  return out;
}

/**
 * What sampling needs of every rollout of the inputs, in file order: its place, ids, task, grader verdict,
 * its regrades' verdicts and the scanner rules that hit it. Keys are the app's (`rolloutKeys` over the
 * same files). A file of no format Trajscope reads, or one that cannot be read, is a SourceError; bad
 * lines are said and skipped.
 */
export async function readCandidates(
  inputs: readonly Input[],
  read: ReadOptions,
  rules: readonly ScanRule[] | undefined,
  regrades: readonly RegradeRow[],
  warn: Warn,
): Promise<QueueCandidate[]> {
  const verdicts = regradeVerdicts(regrades);
  const out: Omit<QueueCandidate, 'rollout'>[] = [];
  for (const input of inputs) {
    let bad = 0;
    const summary = await readJsonlFile(
      input.path,
      (r) => {
        if (r.kind === 'error') {
          bad++;
          return;
        }
        const { record, line } = r.value;
        const ids = { rollout_id: record.rollout_id, attempt_id: record.attempt_id ?? null };
        out.push({
          file: input.file,
          line,
          ...ids,
          task_id: record.task_id,
          verdict: record.grading?.verdict ?? null,
          regrades: verdicts.get(reviewKey(ids)) ?? [],
          scanners: rules ? scannerRuleIds(summarizeRollout(r.value, { rules }).findings) : [],
        });
      },
      read,
      { name: input.file },
    ).catch((e: unknown) => {
      const err = e as NodeJS.ErrnoException;
      throw new SourceError(`cannot read ${input.file}: ${err.code === 'ENOENT' ? 'no such file or directory' : String(e)}`);
    });
    if (summary.unsupported !== null) throw new SourceError(`${input.file}: ${summary.unsupported}`);
    if (bad > 0) warn(`${input.file}: ${plural(bad, 'line')} not read as rollouts (trajscope lint says why)`);
  }
  const keys = rolloutKeys(out);
  return out.map((c, i) => ({ ...c, rollout: keys[i] ?? reviewKey(c) }));
}
