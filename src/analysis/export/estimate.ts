import type { RolloutSummary } from '../types';
import { GroupPairs } from './pairs';
import { sftCandidate } from './sinks';

/** What an export of a selection will write at most, known from the rows alone, before any record is read. */
export interface ExportEstimate {
  /** v1: one record per selected rollout, exactly. */
  records: number;
  /** sft: the selected rollouts in the signal and rewarded; one may still have no text to write. */
  conversations: number;
  /** dpo: the selected groups with a reward gap among their rollouts in the signal, of one task and policy. */
  pairs: number;
}

/**
 * Counts from the summaries what `sft` and `dpo` choose from: the same tests their sinks apply before a
 * record is decoded (sftCandidate; GroupPairs on in-signal rewards), so each is an upper bound that only
 * a rollout without text or a pair without a shared prompt lowers.
 */
export function exportEstimate(selected: readonly { summary: RolloutSummary; policy: string | null }[]): ExportEstimate {
  let conversations = 0;
  const groups = new GroupPairs<null>();
  for (const { summary: s, policy } of selected) {
    if (sftCandidate(s)) conversations++;
    if (s.in_signal && s.reward !== null) groups.add({ group: s.group_id, task: s.task_id, policy, reward: s.reward, item: null });
  }
  let pairs = 0;
  for (const p of groups.pairs()) if (!('skipped' in p)) pairs++;
  return { records: selected.length, conversations, pairs };
}
