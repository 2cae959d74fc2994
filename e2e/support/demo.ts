import { readFileSync } from 'node:fs';
import { parseLine, type Rollout } from '../../src/format';

/** The embedded demo's records, read from the file the build copies, in file order. */
export function demoRecords(): Rollout[] {
  const path = new URL('../../public/demo/rollouts.jsonl', import.meta.url);
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((text, i) => {
      const result = parseLine(text, i + 1, 'rollouts.jsonl');
      return result?.kind === 'rollout' ? [result.value.record] : [];
    });
}

export interface DemoGroup {
  id: string;
  /** In file order. */
  members: Rollout[];
  mean: number | null;
  /** Sample std (n - 1), null under two counted rewards. */
  std: number | null;
}

const IN_SIGNAL = new Set(['finished', 'budget_exhausted', 'invalid_call']);

/** Counted in its group's statistics: in the policy signal with a numeric reward (format §4, §6). */
export function isCounted(r: Rollout): boolean {
  return IN_SIGNAL.has(r.termination) && typeof r.reward === 'number';
}

/** `rollout_id · attempt_id`, as the views write a rollout. */
export function rolloutLabel(r: Rollout): string {
  return r.attempt_id == null ? r.rollout_id : `${r.rollout_id} · ${r.attempt_id}`;
}

/**
 * GRPO groups of the demo computed here from the format spec alone (§6), not by the app's analysis,
 * so a test can check the numbers the app shows.
 */
export function demoGroups(records: readonly Rollout[] = demoRecords()): DemoGroup[] {
  const byId = new Map<string, Rollout[]>();
  for (const r of records) {
    const id = r.group_id ?? `${r.task_id}@${r.policy_version ?? ''}`;
    byId.set(id, [...(byId.get(id) ?? []), r]);
  }
  return [...byId].map(([id, members]) => {
    const rewards = members.filter(isCounted).map((r) => r.reward ?? 0);
    const n = rewards.length;
    const mean = n === 0 ? null : rewards.reduce((a, b) => a + b, 0) / n;
    const std = n < 2 || mean === null ? null : Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / (n - 1));
    return { id, members, mean, std };
  });
}

/** Advantage of one member as the views print it (3 decimals), or "not counted". */
export function expectedAdvantage(g: DemoGroup, r: Rollout, drGrpo: boolean): string {
  if (!isCounted(r) || g.mean === null) return 'not counted';
  const rewards = g.members.filter(isCounted).map((m) => m.reward);
  const zeroVariance = rewards.length >= 2 && rewards.every((x) => x === rewards[0]);
  const diff = (r.reward ?? 0) - g.mean;
  const a = zeroVariance || g.std === null ? 0 : drGrpo ? diff : diff / (g.std + 1e-6);
  const s = a.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}
