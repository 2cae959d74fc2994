import { useMemo } from 'react';
import { FINDING_INFO, formatCount, groupOverview } from '../../analysis';
import {
  useAdvantages,
  useGroups,
  useGroupsBrowse,
  useGrpoAdvantages,
  useRolloutKeys,
  useRolloutRows,
  useRunFiltersActions,
  useSelectedIndex,
  useSelection,
} from '../../state';
import { AdvantageModeToggle } from '../shared/AdvantageModeToggle';
import { GroupCard } from './GroupCard';
import { GroupChart } from './GroupChart';
import { GroupLegend } from './GroupLegend';
import { GroupsSummary } from './GroupsSummary';
import {
  arrangeGroups,
  buildGroupRows,
  GROUP_SORT_KEYS,
  GROUP_SORT_LABELS,
  GROUPS_PER_PAGE,
  groupCodeCounts,
  pageCount,
  rewardScale,
  shownPage,
} from './groupModel';
import './groups.css';

/**
 * The GRPO groups: a summary across groups, then one page of groups at a time as a reward chart and a
 * table per group. Paging (with sorting and a finding filter) keeps a file of 500 groups as light as one
 * of five; the sort brings the groups worth a look to the first page.
 */
export function GroupsView() {
  const rollouts = useRolloutRows();
  const groups = useGroups();
  const keys = useRolloutKeys();
  const advantages = useAdvantages();
  const grpo = useGrpoAdvantages();
  const { drGrpo } = useSelection();
  const browse = useGroupsBrowse();
  const { setGroupSort, setGroupPage, setGroupCode } = useRunFiltersActions();

  const rows = useMemo(() => buildGroupRows(rollouts, groups, keys, advantages), [rollouts, groups, keys, advantages]);
  const overview = useMemo(() => groupOverview(groups), [groups]);
  const codeCounts = useMemo(() => groupCodeCounts(rows), [rows]);
  const scale = useMemo(() => rewardScale(rollouts), [rollouts]);
  const counted = useMemo(() => grpo.filter((a) => a !== null).length, [grpo]);
  const arranged = useMemo(() => arrangeGroups(rows, browse.sort, browse.code), [rows, browse.sort, browse.code]);

  const selectedIndex = useSelectedIndex();
  const selectedGroup = rollouts[selectedIndex]?.group_id ?? null;
  const page = shownPage(arranged, browse.page, selectedGroup);
  const pages = pageCount(arranged.length);
  const shown = useMemo(() => arranged.slice(page * GROUPS_PER_PAGE, (page + 1) * GROUPS_PER_PAGE), [arranged, page]);

  if (groups.length === 0) {
    return (
      <div className="placeholder">
        <h2>No groups</h2>
        <p>No rollout was loaded, so there is no GRPO group to show.</p>
      </div>
    );
  }

  return (
    <div className="groups">
      <GroupsSummary overview={overview} codeCounts={codeCounts} counted={counted} activeCode={browse.code} onCode={setGroupCode} />
      <div className="toolbar groups__toolbar">
        <label className="groups__sort">
          Sort groups
          <select
            value={browse.sort}
            onChange={(e) => {
              const sort = GROUP_SORT_KEYS.find((k) => k === e.target.value);
              if (sort) setGroupSort(sort);
            }}
          >
            {GROUP_SORT_KEYS.map((k) => (
              <option key={k} value={k}>
                {GROUP_SORT_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        {browse.code !== null && (
          <span className="groups__only" title={FINDING_INFO[browse.code].title}>
            only <span className="mono">{browse.code}</span>
            <button type="button" className="link-button" onClick={() => setGroupCode(null)}>
              show all
            </button>
          </span>
        )}
        <nav className="groups__pager" aria-label="Group pages">
          <button type="button" className="gbutton" disabled={page === 0} onClick={() => setGroupPage(page - 1)}>
            ‹ prev
          </button>
          <span>
            groups {formatCount(arranged.length === 0 ? 0 : page * GROUPS_PER_PAGE + 1)}–
            {formatCount(Math.min(arranged.length, (page + 1) * GROUPS_PER_PAGE))} of {formatCount(arranged.length)}
          </span>
          <button type="button" className="gbutton" disabled={page >= pages - 1} onClick={() => setGroupPage(page + 1)}>
            next ›
          </button>
        </nav>
        <span className="groups__end">
          <AdvantageModeToggle drGrpo={drGrpo} />
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="groups__none">No group has this finding.</p>
      ) : (
        <>
          <GroupChart rows={shown} scale={scale} drGrpo={drGrpo} selectedIndex={selectedIndex} />
          <GroupLegend />
          <div className="groups__cards">
            {shown.map((row) => (
              <GroupCard key={row.group.group_id} row={row} drGrpo={drGrpo} selectedIndex={selectedIndex} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
