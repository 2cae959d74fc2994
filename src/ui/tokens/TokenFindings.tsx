import { memo } from 'react';
import { FINDING_INFO, type Finding, type FindingCode } from '../../analysis';
import { SeverityBadge } from '../shared/SeverityBadge';

interface Props {
  findings: readonly Finding[];
  /** Shows the finding in the chips: its sequence and token. */
  onShow: (finding: Finding) => void;
}

function byCode(findings: readonly Finding[]): [FindingCode, Finding[]][] {
  const groups = new Map<FindingCode, Finding[]>();
  for (const f of findings) groups.set(f.code, [...(groups.get(f.code) ?? []), f]);
  return [...groups];
}

/**
 * The rollout's findings about tokens, one entry per code with its one-line explanation, then each
 * occurrence (usually one per segment) with a button that shows it in the chips.
 */
export const TokenFindings = memo(function TokenFindings({ findings, onShow }: Props) {
  if (findings.length === 0) return null;
  return (
    <section className="tok-findings" aria-label="Token findings">
      <ul className="tok-findings__list">
        {byCode(findings).map(([code, group]) => (
          <li key={code} className="tok-findings__item">
            <div className="tok-findings__head">
              <SeverityBadge severity={FINDING_INFO[code].severity} />
              <span className="tok-findings__code mono">{code}</span>
              <span className="tok-findings__title">{FINDING_INFO[code].title}</span>
            </div>
            <ul className="tok-findings__occurrences">
              {group.map((f) => (
                // One line each, the button first: several occurrences stay readable above the chips on a small screen.
                <li key={`${f.segment}:${f.message}`} className="tok-findings__occurrence">
                  <button
                    type="button"
                    className="link-button tok-findings__show"
                    aria-label={`Show ${f.code}${f.segment === null ? '' : ` in segment ${f.segment}`}`}
                    onClick={() => onShow(f)}
                  >
                    Show
                  </button>
                  <span className="tok-findings__message" title={f.message}>
                    {f.message}
                  </span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
});
