import type { RolloutContext } from '../rollout/rolloutContext';

/** PLACEHOLDER until the token view lands (helper B). */
export function TokenView({ ctx }: { ctx: RolloutContext }) {
  return <p>{ctx.record.segments.length} segments</p>;
}
