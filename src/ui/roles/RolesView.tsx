import type { RolloutContext } from '../rollout/rolloutContext';

/** PLACEHOLDER until the four-role view lands (helper, issue 5). */
export function RolesView({ ctx }: { ctx: RolloutContext }) {
  return <p>{ctx.summary.steps} steps</p>;
}
