import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LintSink, LintTotals } from '../analysis';
import { SpooledArray } from './spool';

/** Where `lint --json` keeps its bad lines and rollout summaries until the summary before them is known. */
export interface LintSpool {
  sink: LintSink;
  parseErrors: SpooledArray;
  rollouts: SpooledArray;
  /** Closes both files and puts each E_DUPLICATE_ROLLOUT first among its rollout's findings. */
  finish(totals: LintTotals): LintTotals;
  /** Closes the files, freeing their disk space. */
  close(): void;
}

export function openLintSpool(): LintSpool {
  const dir = mkdtempSync(join(tmpdir(), 'trajscope-lint-spool-'));
  try {
    // Both files are unlinked once open (see SpooledArray); the folder is only where they were made.
    const parseErrors = new SpooledArray(join(dir, 'parse_errors'));
    const rollouts = new SpooledArray(join(dir, 'rollouts'), { editable: true });
    rmSync(dir, { recursive: true, force: true });
    return {
      // A rollout's `failure` signature is the page's and the index's (failure_mode); the report keeps §8's fields.
      sink: { parseError: (e) => parseErrors.push(e), rollout: ({ failure: _failure, ...r }) => rollouts.push(r) },
      parseErrors,
      rollouts,
      finish(totals) {
        parseErrors.finish();
        rollouts.finish();
        for (const [index, duplicate] of totals.duplicates) {
          rollouts.edit(index, (value) => {
            // The summary read back from its own JSON: the same keys, its findings an array.
            if (typeof value === 'object' && value !== null && 'findings' in value && Array.isArray(value.findings))
              value.findings.unshift(duplicate);
            return value;
          });
        }
        return totals;
      },
      close() {
        parseErrors.close();
        rollouts.close();
      },
    };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}
