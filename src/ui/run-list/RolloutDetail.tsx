import {
  FINDING_INFO,
  type Finding,
  formatCount,
  type GroupSummary,
  groupFindings,
  type RolloutSummary,
  terminationInfo,
} from '../../analysis';
import { toCompare, toRollout, useComparePick, useUiActions } from '../../state';
import { formatReward } from '../shared/format';
import { SeverityBadge } from '../shared/SeverityBadge';
import { TerminationBadge } from '../shared/TerminationBadge';

interface Props {
  rollout: RolloutSummary | null;
  /** The `rollout=` key of the shown rollout, to open its inspector. */
  rolloutKey: string | null;
  /** The `rollout=` value from the URL, to name what was asked for when it is not there. */
  requested: string;
  group: GroupSummary | undefined;
  multiFile: boolean;
  onClose: () => void;
}

/** The selected rollout's facts and findings as plain lists: the entry point the inspector will replace. */
export function RolloutDetail({ rollout, rolloutKey, requested, group, multiFile, onClose }: Props) {
  return (
    <aside className="detail" aria-label="Rollout details">
      <header className="detail__head">
        <h2 className="detail__title mono" title={rollout ? rollout.rollout_id : (requested ?? undefined)}>
          <bdi>{rollout ? rollout.rollout_id : requested}</bdi>
        </h2>
        <button type="button" className="detail__close" aria-label="Close details" title="Close (Esc)" onClick={onClose}>
          ×
        </button>
      </header>
      {rollout && rolloutKey !== null && (
        <div className="detail__open">
          <button type="button" className="detail__open-button" onClick={() => toRollout(rolloutKey)}>
            Open inspector
          </button>
          <span className="faint">steps, tokens, raw record (Enter)</span>
          <ComparePick rolloutKey={rolloutKey} />
        </div>
      )}
      {rollout ? (
        <Facts rollout={rollout} group={group} multiFile={multiFile} />
      ) : (
        <p className="detail__empty">No rollout “{requested}” in the loaded data.</p>
      )}
    </aside>
  );
}

/** Select two: pick this rollout, then open the comparison from another one. */
function ComparePick({ rolloutKey }: { rolloutKey: string }) {
  const pick = useComparePick();
  const { setComparePick } = useUiActions();
  if (pick === null || pick === rolloutKey)
    return (
      <button
        type="button"
        className="detail__compare"
        aria-pressed={pick === rolloutKey}
        onClick={() => setComparePick(pick === rolloutKey ? null : rolloutKey)}
      >
        {pick === rolloutKey ? 'Picked for compare: select another' : 'Pick for compare'}
      </button>
    );
  return (
    <button
      type="button"
      className="detail__compare"
      onClick={() => {
        setComparePick(null);
        toCompare(pick, rolloutKey);
      }}
    >
      Compare with {pick}
    </button>
  );
}

function Facts({ rollout: r, group, multiFile }: { rollout: RolloutSummary; group: GroupSummary | undefined; multiFile: boolean }) {
  const info = terminationInfo(r.termination);
  return (
    <>
      <dl className="detail__facts">
        <dt>Attempt</dt>
        <dd className="mono">{r.attempt_id ?? <span className="faint">none</span>}</dd>
        <dt>Task</dt>
        <dd className="mono">{r.task_id}</dd>
        <dt>Group</dt>
        <dd className="mono">{r.group_id}</dd>
        <dt>Line</dt>
        <dd>{multiFile ? `${r.file}:${r.line}` : r.line}</dd>
        <dt>Termination</dt>
        <dd>
          <TerminationBadge termination={r.termination} />
          <div className="detail__meaning">{info.meaning}</div>
        </dd>
        <dt>Reward</dt>
        <dd>{r.reward === null ? <span className="faint">— (null)</span> : formatReward(r.reward)}</dd>
        <dt>Steps</dt>
        <dd>{formatCount(r.steps)}</dd>
        <dt>Regressions</dt>
        <dd>
          {r.indexed ? (
            r.indexed.regressions === 0 ? (
              <span className="faint">none</span>
            ) : (
              <span>
                {formatCount(r.indexed.regressions)} <span className="faint">(the Steps view marks each)</span>
              </span>
            )
          ) : r.regressions.length === 0 ? (
            <span className="faint">none</span>
          ) : (
            <ul className="detail__plain">
              {r.regressions.slice(0, SHOWN_REGRESSIONS).map((g) => (
                <li key={`${g.step}-${g.kind}`}>
                  step {g.step}: {g.kind}
                  {g.kind === 'revert' ? ` of step ${g.of_step}` : ` (${g.tests.join(', ')})`}
                </li>
              ))}
              {r.regressions.length > SHOWN_REGRESSIONS && (
                <li className="faint">… and {formatCount(r.regressions.length - SHOWN_REGRESSIONS)} more (the Steps view marks each)</li>
              )}
            </ul>
          )}
        </dd>
      </dl>
      <FindingList title="Findings" findings={r.findings} empty="No findings for this rollout." scope="whole rollout" />
      {group && group.findings.length > 0 && (
        <FindingList title={`Group ${group.group_id}`} findings={group.findings} empty="" scope="whole group" />
      )}
    </>
  );
}

/** How many regressions the pane lists; the rest are counted (the Steps view marks each). */
const SHOWN_REGRESSIONS = 20;

/**
 * `scope` names what a finding without a segment or step is about. Grouped by code, each with its count
 * and its first few: a rollout can carry millions of findings (one per step), and one row per finding
 * froze the page for minutes when such a rollout was selected.
 */
function FindingList({ title, findings, empty, scope }: { title: string; findings: readonly Finding[]; empty: string; scope: string }) {
  const groups = groupFindings(findings);
  return (
    <section className="detail__section" aria-label={title}>
      <h3>
        {title} <span className="faint">({formatCount(findings.length)})</span>
      </h3>
      {findings.length === 0 ? (
        <p className="faint">{empty}</p>
      ) : (
        <ul className="findings">
          {groups.flatMap((g) => [
            ...g.shown.map((f, i) => (
              // Findings have no id; their order is stable for one report.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <li key={`${g.code}-${i}`} className="finding">
                <div className="finding__head">
                  <SeverityBadge severity={f.severity} />
                  <span className="mono finding__code">{f.code}</span>
                  <Where finding={f} scope={scope} />
                </div>
                <div className="finding__title">{FINDING_INFO[f.code].title}</div>
                {f.message && <div className="finding__message">{f.message}</div>}
              </li>
            )),
            ...(g.count > g.shown.length
              ? [
                  <li key={`${g.code}-more`} className="finding finding--more faint">
                    … and {formatCount(g.count - g.shown.length)} more <span className="mono">{g.code}</span>
                  </li>,
                ]
              : []),
          ])}
        </ul>
      )}
    </section>
  );
}

function Where({ finding: f, scope }: { finding: Finding; scope: string }) {
  const parts = [f.segment !== null && `segment ${f.segment}`, f.step !== null && `step ${f.step}`].filter(Boolean);
  return <span className="faint finding__where">{parts.length > 0 ? parts.join(' · ') : scope}</span>;
}
