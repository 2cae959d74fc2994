import { type PageFormat, plural, type Skips } from '../../../analysis';
import type { RunFilters, StepRange } from '../../../state';
import { formatRange } from '../../../state';

/** The name the browser saves an export under. */
export const exportFileName = (format: PageFormat): string => `trajscope-export-${format}.jsonl`;

/** A word for the shell, in single quotes: `it's` -> `'it'\''s'`. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The command that writes the same selection's index rows (parquet needs each line's bytes: the CLI reads them). */
export function cliCommand(inputs: readonly string[], where: string | null, format = 'parquet'): string {
  const out = `export.${format === 'parquet' ? 'parquet' : 'jsonl'}`;
  return [
    'trajscope export',
    ...inputs.map(shellQuote),
    ...(where ? ['--where', shellQuote(where)] : []),
    '--as',
    format,
    '--out',
    out,
  ].join(' ');
}

/** A run's selected training steps as query clauses, so the query alone chooses what the page shows. */
export function withSteps(query: string, steps: StepRange | null): string {
  if (steps === null) return query;
  const clauses = steps.from === steps.to ? `step:${steps.from}` : `step>=${steps.from} step<=${steps.to}`;
  return query.trim() === '' ? clauses : `${query.trim()} ${clauses}`;
}

/**
 * What chose the run list's rows, for each record's provenance: its filters in words (several
 * terminations, ids by substring, group findings and reviews have no search term, so this is no query).
 */
export function filtersWhere(f: RunFilters, steps: StepRange | null): string {
  const parts: string[] = [];
  if (steps) parts.push(`training steps ${formatRange(steps)}`);
  if (f.terminations.length > 0) parts.push(`termination ${f.terminations.join(' or ')}`);
  if (f.signal === 'in') parts.push('in signal');
  if (f.signal === 'excluded') parts.push('excluded');
  if (f.hasFindings) parts.push('has findings');
  if (f.hasRegressions) parts.push('has regressions');
  if (f.code !== null) parts.push(`finding ${f.code} (own or group's)`);
  if (f.text.trim() !== '') parts.push(`ids containing ${JSON.stringify(f.text.trim())}`);
  if (f.review !== 'all') parts.push(`review ${f.review}`);
  if (f.mismatchAbove != null) parts.push(`mismatch max |d| above ${f.mismatchAbove}`);
  return `run list: ${parts.length === 0 ? 'every rollout' : parts.join('; ')}`;
}

/** "3 rollouts excluded (...), 1 group with no reward gap": what an export left out, and why. */
export function skipsText(skips: Skips): string {
  return [...skips.counts.values()].map(({ noun, why, n }) => `${plural(n, noun)} ${why}`).join(', ');
}
