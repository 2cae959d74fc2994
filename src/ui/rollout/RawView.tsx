import type { Rollout } from '../../format';

/** PLACEHOLDER until the raw view lands (helper A). */
export function RawView({ record }: { record: Rollout }) {
  return <pre>{JSON.stringify(record).slice(0, 200)}</pre>;
}
