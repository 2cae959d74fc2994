import type { Rollout } from '../../../format';
import { formatReward } from '../../shared/format';
import { CodeBlock, looksLikeDiff } from '../../shared/highlight';
import type { Expanded } from './useExpanded';

/** Lines of the submitted artifact shown before "show all". */
const ARTIFACT_PREVIEW_LINES = 14;

type CountOrNames = number | string[] | undefined;

function countOf(v: CountOrNames): number | null {
  return v === undefined ? null : typeof v === 'number' ? v : v.length;
}

function TestNames({ label, value, tone }: { label: string; value: CountOrNames; tone: string }) {
  const n = countOf(value);
  if (n === null) return null;
  return (
    <div className={`st-tests__group st-tests__group--${tone}${n === 0 ? ' st-tests__group--empty' : ''}`}>
      <span className="st-tests__label">
        {label} ({n})
      </span>
      {Array.isArray(value) && value.length > 0 && (
        <ul className="st-tests__names" aria-label={`Private tests ${label}`}>
          {value.map((name, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a test name may repeat
            <li key={i} className="st-test-chip">
              {name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The grader's private verdict, after the last step and set apart: it is training-side data that never
 * enters any context of the model.
 */
export function GraderLane({ record, expanded }: { record: Rollout; expanded: Expanded }) {
  const g = record.grading;
  const grader = g?.grader ?? record.grader;
  const artifact = g?.artifact;
  const lines = artifact?.split('\n') ?? [];
  const showAll = expanded.isOpen('artifact');
  const shown = showAll || lines.length <= ARTIFACT_PREVIEW_LINES + 2 ? artifact : lines.slice(0, ARTIFACT_PREVIEW_LINES).join('\n');
  return (
    <section className="st-lane st-lane--grader" aria-label="Grader verdict">
      <div className="st-lane__label st-lane__label--grader">Grader — private, training side only: never in the model’s context</div>
      {!g ? (
        <p className="faint">
          No grading recorded{record.reward == null ? '' : `; the reward recorded is ${formatReward(record.reward)}`}.
        </p>
      ) : (
        <>
          <dl className="st-grader-facts">
            <dt>Verdict</dt>
            <dd>
              {g.verdict !== undefined ? (
                <span className={`st-verdict st-verdict--${g.verdict}`}>{g.verdict}</span>
              ) : (
                <span className="faint">none</span>
              )}
            </dd>
            <dt>Reward</dt>
            <dd>{record.reward == null ? <span className="faint">null</span> : formatReward(record.reward)}</dd>
            {grader && (
              <>
                <dt>Grader</dt>
                <dd className="mono">
                  {grader.name ?? 'unnamed'}{' '}
                  {grader.version !== undefined ? (
                    <span className="faint">{grader.version}</span>
                  ) : (
                    <span className="faint">(no version)</span>
                  )}
                </dd>
              </>
            )}
            {g.artifact_digest !== undefined && (
              <>
                <dt>Artifact</dt>
                <dd className="mono">{g.artifact_digest}</dd>
              </>
            )}
          </dl>
          {g.private_tests && (
            <div className="st-tests">
              <TestNames label="passed" value={g.private_tests.passed} tone="passed" />
              <TestNames label="failed" value={g.private_tests.failed} tone="failed" />
            </div>
          )}
          {g.process_scores && g.process_scores.length > 0 && (
            <ul className="st-grader-scores" aria-label="Process scores">
              {g.process_scores.map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: scores have no id
                <li key={i}>
                  {s.step !== undefined && <span className="faint">step {s.step} · </span>}
                  {s.name ?? 'score'}: <span className="mono">{s.value ?? '—'}</span>
                </li>
              ))}
            </ul>
          )}
          {artifact !== undefined && shown !== undefined && (
            <div className="st-grader-artifact">
              <div className="st-grader-artifact__head">
                Submitted artifact <span className="faint">({lines.length} lines)</span>
                {shown !== artifact && (
                  <button type="button" className="link-button" onClick={() => expanded.toggle('artifact')}>
                    show all
                  </button>
                )}
                {showAll && lines.length > ARTIFACT_PREVIEW_LINES + 2 && (
                  <button type="button" className="link-button" onClick={() => expanded.toggle('artifact')}>
                    show less
                  </button>
                )}
              </div>
              <CodeBlock code={shown} lang={looksLikeDiff(artifact) ? 'diff' : null} className="st-grader-artifact__code" />
            </div>
          )}
        </>
      )}
    </section>
  );
}
