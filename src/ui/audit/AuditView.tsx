import type { RolloutContext } from '../rollout/rolloutContext';

/** PLACEHOLDER until the audit view lands (helper, issue 5). */
export function AuditView({ ctx }: { ctx: RolloutContext }) {
  return <p>{ctx.record.grading?.verdict ?? 'no verdict'}</p>;
}
