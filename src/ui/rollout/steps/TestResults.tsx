import type { Step } from '../../../format';

type Tests = NonNullable<Step['tests']>;

const GROUPS = [
  { key: 'passed', label: 'passed', className: 'st-tests__group--passed' },
  { key: 'failed', label: 'failed', className: 'st-tests__group--failed' },
  { key: 'over_budget', label: 'over budget', className: 'st-tests__group--over' },
] as const;

/** The dev tests of a test run by outcome, each test by name. */
export function TestResults({ tests }: { tests: Tests }) {
  const groups = GROUPS.map((g) => ({ ...g, names: tests[g.key] ?? [] })).filter((g) => g.names.length > 0);
  if (groups.length === 0) return null;
  return (
    <div className="st-tests">
      {groups.map((g) => (
        <div key={g.key} className={`st-tests__group ${g.className}`}>
          <span className="st-tests__label">
            {g.label} ({g.names.length})
          </span>
          <ul className="st-tests__names" aria-label={`Tests ${g.label}`}>
            {g.names.map((n, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a test name may repeat
              <li key={i} className="st-test-chip">
                {n}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
