import type { RolloutContext } from './rolloutContext';

/** PLACEHOLDER until the steps view lands (helper A). */
export function StepsView({ ctx }: { ctx: RolloutContext }) {
  return <p>{ctx.summary.steps} steps</p>;
}
