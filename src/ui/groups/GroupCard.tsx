import { memo, useState } from 'react';
import { FINDING_INFO } from '../../analysis';
import { toCompare, toRollout } from '../../state';
import { advantageMode } from '../shared/advantageMode';
import { formatAdvantage, formatReward } from '../shared/format';
import { TerminationBadge } from '../shared/TerminationBadge';
import { bestAndWorst, GROUP_BADGES, type GroupRow } from './groupModel';

/** Rows a group's table shows before "show all": a page of 12 big groups must stay light. */
const TABLE_ROWS = 20;

interface Props {
  row: GroupRow;
  drGrpo: boolean;
  selectedIndex: number;
}

/** One group: its statistics, findings and a table of its rollouts with their advantages. */
export const GroupCard = memo(function GroupCard({ row, drGrpo, selectedIndex }: Props) {
  const { group: g, members } = row;
  const mode = advantageMode(drGrpo);
  const current = members.some((m) => m.index === selectedIndex);
  const [expanded, setExpanded] = useState(current);
  const clipped = !expanded && members.length > TABLE_ROWS + 4;
  const rows = clipped ? members.slice(0, TABLE_ROWS) : members;
  const contrast = bestAndWorst(members);
  const selectedKey = members.find((m) => m.index === selectedIndex)?.key;
  const cardClass = ['gcard', row.zeroVariance && 'is-zero-variance', current && 'is-current'].filter(Boolean).join(' ');
  return (
    <section className={cardClass} aria-label={`Group ${g.group_id}`}>
      <header className="gcard__head">
        <h3 className="gcard__id mono">{g.group_id}</h3>
        {contrast && (
          <button
            type="button"
            className="link-button"
            title={`Compare ${contrast.best.key} (reward ${formatReward(contrast.best.rollout.reward ?? 0)}) with ${contrast.worst.key} (reward ${formatReward(contrast.worst.rollout.reward ?? 0)})`}
            onClick={() => toCompare(contrast.best.key, contrast.worst.key)}
          >
            Compare best vs worst
          </button>
        )}
        {row.codes.map((code) => (
          <span key={code} className="gbadge" title={FINDING_INFO[code].title}>
            {GROUP_BADGES[code] ?? code}
          </span>
        ))}
      </header>
      <p className="gcard__stats">
        {g.in_signal} of {g.rollouts} in signal
        {g.unknown_termination > 0 && (
          <span title="These rollouts record no termination status; see the note above the groups">
            {' '}
            ({g.unknown_termination} with no recorded status)
          </span>
        )}{' '}
        · mean {g.mean === null ? '—' : formatReward(g.mean)} · std {g.std === null ? '—' : g.std.toFixed(3)}
      </p>
      {g.findings.length > 0 && (
        <ul className="gcard__findings">
          {g.findings.map((f) => (
            <li key={f.code}>
              <span className="mono gcard__code">{f.code}</span> {FINDING_INFO[f.code].title}
              {f.message && <div className="faint">{f.message}</div>}
            </li>
          ))}
        </ul>
      )}
      <table className="gtable" aria-label={`Rollouts in ${g.group_id}`}>
        <thead>
          <tr>
            <th scope="col">Rollout</th>
            <th scope="col">Termination</th>
            <th scope="col" className="gtable__num">
              Reward
            </th>
            <th scope="col" className="gtable__num" title={`${mode.label}: ${mode.formula}`}>
              Advantage ({mode.label})
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((m) => {
            const r = m.rollout;
            const classes = [!r.in_signal && 'is-excluded', m.index === selectedIndex && 'is-selected'].filter(Boolean).join(' ');
            return (
              // A larger mouse target; the row's button opens it from the keyboard.
              <tr
                key={m.index}
                className={classes || undefined}
                aria-current={m.index === selectedIndex ? 'true' : undefined}
                onClick={() => toRollout(m.key)}
              >
                <td>
                  <button
                    type="button"
                    className="gtable__open mono"
                    title="Open the inspector"
                    onClick={(e) => {
                      e.stopPropagation();
                      toRollout(m.key);
                    }}
                  >
                    <bdi>{r.rollout_id}</bdi>
                    {r.attempt_id !== null && <span className="faint"> · {r.attempt_id}</span>}
                  </button>
                  {selectedKey !== undefined && m.index !== selectedIndex && (
                    <button
                      type="button"
                      className="link-button gtable__vs"
                      title={`Compare the selected rollout (${selectedKey}) with this group-mate`}
                      onClick={(e) => {
                        e.stopPropagation();
                        toCompare(selectedKey, m.key);
                      }}
                    >
                      vs selected
                    </button>
                  )}
                </td>
                <td>
                  <TerminationBadge termination={r.termination} />
                </td>
                <td className="gtable__num">{r.reward === null ? <span className="faint">—</span> : formatReward(r.reward)}</td>
                <td className="gtable__num">
                  {m.advantage === null ? (
                    <span className="faint" title="Not counted in the group statistics">
                      not counted
                    </span>
                  ) : (
                    formatAdvantage(m.advantage)
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {clipped && (
        <button type="button" className="link-button gcard__more" onClick={() => setExpanded(true)}>
          Show all {members.length} rollouts
        </button>
      )}
    </section>
  );
});
