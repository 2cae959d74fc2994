import { type AuditFacts, type CheckStatus, graderIdentity, plural, terminationInfo } from '../../analysis';
import type { Rollout } from '../../format';
import { formatReward } from '../shared/format';
import { contractText, type WordedCheck } from './auditWords';

const STATUS_MARK: Record<CheckStatus, string> = { ok: '✓', problem: '✗', unknown: '?', 'not-applicable': '–' };
const STATUS_TEXT: Record<CheckStatus, string> = { ok: 'ok', problem: 'problem', unknown: 'unknown', 'not-applicable': 'does not apply' };

function noGradingText(record: Rollout): string {
  const info = terminationInfo(record.termination);
  if (!info.inSignal) return `Not graded: the rollout is excluded (${info.label}), so no grade is expected.`;
  if (record.termination === 'budget_exhausted') return 'Not graded: the budget ran out before a finish, so nothing was submitted.';
  if (record.termination === 'invalid_call') return 'Not graded: the rollout ended on an invalid call, before any submission.';
  return 'No grading recorded.';
}

/** The grader's decision at a glance: verdict, grader identity, and the reward the trainer recorded. */
export function VerdictCard({ record, facts, checks }: { record: Rollout; facts: AuditFacts; checks: readonly WordedCheck[] }) {
  const verdict = record.grading?.verdict;
  const grader = graderIdentity(record);
  const problems = checks.filter((c) => c.status === 'problem').length;
  return (
    <section className="audit-card" aria-labelledby="audit-verdict-title">
      <h3 id="audit-verdict-title" className="audit-card__title">
        Grader decision
        <span className={problems ? 'audit-card__aside count--error' : 'audit-card__aside'}>
          {problems ? plural(problems, 'consistency problem') : 'no consistency problem'}
        </span>
      </h3>
      <dl className="audit-facts">
        <dt>Verdict</dt>
        <dd>
          {verdict === undefined ? (
            <span className="faint">{noGradingText(record)}</span>
          ) : (
            <span className={`verdict verdict--${verdict === 'pass' || verdict === 'fail' ? verdict : 'other'}`}>{verdict}</span>
          )}
        </dd>
        <dt>Grader</dt>
        <dd>
          {grader.name === null && grader.version === null ? (
            <span className="faint">not named</span>
          ) : (
            <>
              <span className="mono">{grader.name ?? 'unnamed'}</span>{' '}
              {grader.version === null ? (
                <span className="count--warning">no version</span>
              ) : (
                <span className="mono faint">{grader.version}</span>
              )}
            </>
          )}
          {grader.differs && <span className="count--warning"> (grading.grader differs from the record’s grader)</span>}
        </dd>
        <dt>Contract</dt>
        <dd>{record.task?.contract ?? <span className="faint">none recorded</span>}</dd>
        <dt>Reward</dt>
        <dd>
          {typeof record.reward === 'number' ? formatReward(record.reward) : <span className="faint">null</span>}
          <span className="faint"> · contract: {contractText(facts.contract)}</span>
        </dd>
      </dl>
      <ul className="audit-checks" aria-label="Consistency checks">
        {checks.map((c) => (
          <li key={c.id} className={`audit-check audit-check--${c.status}`}>
            <span className="audit-check__mark" role="img" aria-label={STATUS_TEXT[c.status]}>
              {STATUS_MARK[c.status]}
            </span>
            <span className="audit-check__title">{c.title}</span>
            <span className="audit-check__detail">{c.detail}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
