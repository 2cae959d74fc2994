import { Fragment } from 'react';
import { FINDING_INFO, type Finding, groupFindings } from '../../../analysis';
import { formatCount } from '../../../format';

/** Scanner hits say which rule in their message (`rule-id: Title (where)`): that, not the code's one title. */
const SCAN_CODES: ReadonlySet<string> = new Set(['W_SCAN', 'E_SCAN']);

/** A finding as its code and title (a scanner hit's rule); the message opens below on click. */
export function FindingBadge({ finding }: { finding: Finding }) {
  const info = FINDING_INFO[finding.code];
  const title = SCAN_CODES.has(finding.code) && finding.message ? finding.message : info.title;
  return (
    <details className={`st-finding-badge st-finding-badge--${finding.severity}`}>
      <summary title={finding.message || info.title}>
        <span className="st-finding-badge__code">{finding.code}</span> {title}
      </summary>
      {finding.message && <p className="st-finding-badge__message">{finding.message}</p>}
    </details>
  );
}

/** Findings about the whole rollout, above its steps: by code, the first few of each and a count of the rest. */
export function RolloutFindings({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <section className="steps-findings" aria-label="Rollout findings">
      <span className="steps-findings__label">Whole rollout</span>
      {groupFindings(findings).map((g) => (
        <Fragment key={g.code}>
          {g.shown.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: findings have no id; their order is fixed per record
            <FindingBadge key={i} finding={f} />
          ))}
          {g.count > g.shown.length && (
            <span className="steps-findings__more faint">
              … and {formatCount(g.count - g.shown.length)} more {g.code}
            </span>
          )}
        </Fragment>
      ))}
    </section>
  );
}
