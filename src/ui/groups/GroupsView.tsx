import type { LoadResult } from '../../load';

/** PLACEHOLDER until the groups view lands (helper C). */
export function GroupsView({ result }: { result: LoadResult }) {
  return <p>{result.report.groups.length} groups</p>;
}
