import type { GroupSummary, RolloutSummary } from '../../analysis';
import type { Rollout } from '../../format';
import type { Decoder } from '../../load';

/** Everything a view of one rollout needs, resolved once by the page. */
export interface RolloutContext {
  record: Rollout;
  summary: RolloutSummary;
  /** Index in the loaded rollouts (file order). */
  index: number;
  /** The `rollout=` value that selects it. */
  key: string;
  group: GroupSummary | undefined;
  /** Advantage in its group under the mode in the URL; null when the rollout is not counted. */
  advantage: number | null;
  drGrpo: boolean;
  /** Token ids to text; null only while there is no record. */
  decoder: Decoder | null;
}
