import { basename } from 'node:path';
import { type CheckOptions, summarizeRollout } from '../../analysis';
import type { LoadedRollout } from '../../format';
import type { IndexRow } from '../../format/runIndex/columns';

/**
 * The training step a file's name gives (§9: "a number in it"): the number after `step` when there is one
 * (`step_0012.jsonl`, `global_step12.jsonl.gz`), else the name's only number (`12.jsonl`, veRL's
 * `{step}.jsonl`); null when the name has none, or several and no `step` (`run3-2026-11-30.jsonl` says
 * nothing certain), so the run-wide policy order decides.
 */
export function fileNameStep(file: string): number | null {
  const name = basename(file);
  const digits = name.match(/step[\W_]*(\d+)/i)?.[1] ?? (name.match(/\d+/g)?.length === 1 ? name.match(/\d+/)?.[0] : undefined);
  if (digits === undefined) return null;
  const n = Number(digits);
  return Number.isSafeInteger(n) && n <= 2 ** 31 - 1 ? n : null;
}

function recordStep(record: LoadedRollout['record']): number | null {
  const step = (record as { training_step?: unknown }).training_step;
  return typeof step === 'number' && Number.isInteger(step) && step >= 0 && step <= 2 ** 31 - 1 ? step : null;
}

function epochMs(text: string | undefined): number | null {
  if (text === undefined) return null;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

export interface RowOptions extends CheckOptions {
  /** §10's truncated-importance-sampling cap (lint's `--is-cap`). */
  isCap?: number;
}

/**
 * One index row for a rollout lint reports: its summary (`summarizeRollout`, the per-rollout half of
 * lint's session, with the same options) and the counts the run views chart. Cross-rollout findings
 * (duplicates, group checks) are not per-row facts: they are reductions over the index (see sql.ts).
 * `training_step` is the record's, else the file name's; with neither it is left for the run-wide
 * policy order (build.ts), which only the whole run knows. `source_format` is set when the shard is written.
 */
export function indexRow(
  loaded: LoadedRollout,
  span: { offset: number; length: number },
  file: string,
  stepFromName: number | null,
  options: RowOptions,
): IndexRow {
  const r = loaded.record;
  const summary = summarizeRollout(loaded, options);
  let generated = 0;
  let context = 0;
  let trained = 0;
  for (const s of r.segments) {
    generated += s.generated_ids.length;
    context = Math.max(context, s.input_ids.length);
    trained += s.loss_mask ? s.loss_mask.reduce<number>((a, m) => a + (m === 1 ? 1 : 0), 0) : s.generated_ids.length;
  }
  let errors = 0;
  const codes = new Set<string>();
  for (const f of summary.findings) {
    if (f.severity === 'error') errors++;
    codes.add(f.code);
  }
  const fromRecord = recordStep(r);
  // The same §10 numbers lint --json reports, computed once in summarizeRollout.
  const mismatch = summary.mismatch;
  return {
    file,
    line: loaded.line,
    offset: span.offset,
    length: span.length,
    task_id: summary.task_id,
    rollout_id: summary.rollout_id,
    attempt_id: summary.attempt_id,
    group_id: summary.group_id,
    policy_version: r.policy_version ?? null,
    training_step: fromRecord ?? stepFromName,
    training_step_from: fromRecord !== null ? 'record' : stepFromName !== null ? 'file_name' : 'policy_order',
    termination: summary.termination,
    in_signal: summary.in_signal,
    reward: summary.reward,
    source_format: 'v1',
    segments: r.segments.length,
    steps: summary.steps,
    generated_tokens: generated,
    context_tokens: context,
    trained_tokens: trained,
    regressions: summary.regressions.length,
    errors,
    warnings: summary.findings.length - errors,
    finding_codes: [...codes].sort(),
    truncated: codes.has('W_HIT_MAX_TOKENS'),
    mismatch_n: mismatch?.n ?? null,
    mismatch_mean_abs: mismatch?.mean_abs ?? null,
    mismatch_max_abs: mismatch?.max_abs ?? null,
    mismatch_ratio_mean: mismatch?.ratio_mean ?? null,
    mismatch_ratio_clip_frac: mismatch?.ratio_clip_frac ?? null,
    mismatch_kl_k3: mismatch?.kl_k3 ?? null,
    started_at: epochMs(r.started_at),
    ended_at: epochMs(r.ended_at),
    failure_mode: summary.failure?.name ?? null,
    failure_features: summary.failure ? summary.failure.features.join(' ') : null,
  };
}
