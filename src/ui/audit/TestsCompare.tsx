import { useMemo } from 'react';
import { type DevTests, privateTests, type TestContrast } from '../../analysis';
import type { Rollout } from '../../format';
import { agreementText } from './auditWords';

type Outcome = 'passed' | 'failed' | 'over budget';

function TestList({ tests, label }: { tests: Array<[string, Outcome]>; label: string }) {
  return (
    <ul className="tests" aria-label={label}>
      {tests.map(([name, outcome]) => (
        <li key={`${outcome}:${name}`} className={`tests__item tests__item--${outcome.replace(' ', '-')}`}>
          <span className="tests__outcome">{outcome}</span>
          <span className="tests__name">{name}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The last public dev-test results the model saw beside the private results only the grader saw, so
 * "dev tests passed, private verdict failed" stands out.
 */
export function TestsCompare({ record, dev, contrast }: { record: Rollout; dev: DevTests | null; contrast: TestContrast }) {
  const priv = useMemo(() => privateTests(record), [record]);
  const devList: Array<[string, Outcome]> = dev?.passed
    ? [
        ...dev.passed.map((n): [string, Outcome] => [n, 'passed']),
        ...dev.failed.map((n): [string, Outcome] => [n, 'failed']),
        ...dev.overBudget.map((n): [string, Outcome] => [n, 'over budget']),
      ]
    : [];
  const privList: Array<[string, Outcome]> = [
    ...(priv?.passedNames ?? []).map((n): [string, Outcome] => [n, 'passed']),
    ...(priv?.failedNames ?? []).map((n): [string, Outcome] => [n, 'failed']),
  ];
  const verdict = record.grading?.verdict;

  return (
    <section className="audit-card" aria-labelledby="audit-tests-title">
      <h3 id="audit-tests-title" className="audit-card__title">
        Dev tests the model saw · private tests the grader ran
      </h3>
      {contrast.kind === 'dev-pass-private-fail' ? (
        <p className="contrast contrast--alarm">
          <strong>Dev tests passed, private verdict failed.</strong> The public tests did not catch what the private ones did: the model had
          every visible reason to think it was done.
        </p>
      ) : contrast.kind === 'dev-fail-private-pass' ? (
        <p className="contrast contrast--odd">
          <strong>Dev tests did not all pass, yet the private verdict passed.</strong> The model submitted on failing public tests.
        </p>
      ) : contrast.kind === 'agree' ? (
        <p className="contrast">{agreementText(contrast)}</p>
      ) : null}
      <div className="tests-compare">
        <div className="tests-compare__col">
          <h4>
            Public dev tests <span className="faint">{dev ? `· last run_tests, step ${dev.step}` : ''}</span>
          </h4>
          <p className="tests-compare__who">visible to the model</p>
          {dev === null ? (
            <p className="audit-empty">No dev test run is recorded: the model called no test tool, or its harness has none.</p>
          ) : dev.passed === null ? (
            <p className="audit-empty">That run recorded no test results.</p>
          ) : devList.length === 0 ? (
            <p className="audit-empty">No tests reported.</p>
          ) : (
            <TestList tests={devList} label="Dev test results" />
          )}
        </div>
        <div className="tests-compare__col tests-compare__col--private">
          <h4>
            Private tests{' '}
            {verdict !== undefined && (
              <span className={`verdict verdict--small verdict--${verdict === 'pass' || verdict === 'fail' ? verdict : 'other'}`}>
                {verdict}
              </span>
            )}
          </h4>
          <p className="tests-compare__who">grader only: never in the model’s context</p>
          {priv === null ? (
            <p className="audit-empty">No private test results recorded.</p>
          ) : privList.length > 0 ? (
            <>
              <TestList tests={privList} label="Private test results" />
              {(priv.passedNames === null || priv.failedNames === null) && (
                <p className="faint">
                  {priv.passedNames === null && priv.passed !== null ? `${priv.passed} passed (counts only). ` : ''}
                  {priv.failedNames === null && priv.failed !== null ? `${priv.failed} failed (counts only).` : ''}
                </p>
              )}
            </>
          ) : (
            <p>
              {priv.passed ?? 0} passed, {priv.failed ?? 0} failed <span className="faint">(counts only)</span>
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
