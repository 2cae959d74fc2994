import type { Rollout } from '../../format';
import { contentMatcher, matchRow } from '../search/match';
import type { Query } from '../search/query';
import type { RolloutSummary } from '../types';

/** Whether a rollout is chosen by a query: `matches` reads its summary first and the record only if need be. */
export interface RolloutSelector {
  matches(summary: RolloutSummary, record: Rollout): boolean;
}

/**
 * The search query's selection over records read whole (`trajscope export --where`): the row clauses on
 * the rollout's lint summary (`matchRow`, as the run list), the content clauses on the record
 * (`contentMatcher`, as the search scan), ANDed, so a query selects here what the app's search finds.
 */
export function rolloutSelector(query: Query): RolloutSelector {
  // Nothing shows hits here, so none are kept.
  const content = contentMatcher(query.clauses, 0);
  return {
    matches: (summary, record) => matchRow(query.clauses, summary) && (content.empty || content.match(record) !== null),
  };
}
