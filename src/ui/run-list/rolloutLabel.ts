import type { RolloutSummary } from '../../analysis';

/**
 * A rollout id that begins with its own file's name (a format without ids: `file:line`, `file:line/samples[2]`)
 * is shown after that name, which the file column holds: otherwise every row of one log reads the same
 * clipped prefix (issue 31, Inspect). The title keeps the whole id.
 */
export function rolloutLabel(r: Pick<RolloutSummary, 'file' | 'rollout_id'>): string {
  const prefix = `${r.file}:`;
  if (!r.rollout_id.startsWith(prefix) || r.rollout_id.length === prefix.length) return r.rollout_id;
  const rest = r.rollout_id.slice(prefix.length);
  return /^\d+$/.test(rest) ? `line ${rest}` : rest;
}
