import { FINDING_INFO, type FindingCode, formatCount, terminationInfo } from '../../analysis';
import { isFiltered, type RunFilters, type SignalFilter, useRunFiltersActions } from '../../state';
import { AdvantageModeToggle } from '../shared/AdvantageModeToggle';

interface Props {
  filters: RunFilters;
  /** Terminations present in the data, with how many rollouts have each. */
  terminations: ReadonlyArray<readonly [string, number]>;
  codes: ReadonlyArray<{ code: FindingCode; rollouts: number; group: boolean }>;
  shown: number;
  total: number;
  drGrpo: boolean;
  /** Why the review filter is not applied yet (reading the file's reviews), or null. */
  reviewNote: string | null;
}

const REVIEW_OPTIONS: Array<[RunFilters['review'], string]> = [
  ['all', 'Any review'],
  ['unreviewed', 'Unreviewed'],
  ['disagreed', 'Disagreed'],
];

const SIGNAL_OPTIONS: Array<[SignalFilter, string]> = [
  ['all', 'All rollouts'],
  ['in', 'In signal only'],
  ['excluded', 'Excluded only'],
];

/** Filters over the run list: every control writes the run-filters store; the table reads the result. */
export function RunFilterBar({ filters, terminations, codes, shown, total, drGrpo, reviewNote }: Props) {
  const { setFilters, toggleTermination, clearFilters } = useRunFiltersActions();
  const filtered = isFiltered(filters);
  return (
    <search className="toolbar filters" aria-label="Filter rollouts">
      <input
        type="search"
        className="filters__search"
        aria-label="Search ids"
        placeholder="Search ids: rollout, attempt, task, group"
        value={filters.text}
        onChange={(e) => setFilters({ text: e.target.value })}
      />
      <fieldset className={filters.terminations.length > 0 ? 'filters__terms has-choice' : 'filters__terms'}>
        <legend className="filters__legend">Termination</legend>
        {terminations.map(([t, n]) => (
          <button
            key={t}
            type="button"
            className={`filters__chip term term--${terminationInfo(t).known ? t : 'unknown'}`}
            aria-pressed={filters.terminations.includes(t)}
            title={terminationInfo(t).meaning}
            onClick={() => toggleTermination(t)}
          >
            {terminationInfo(t).label} <span className="filters__n">{formatCount(n)}</span>
          </button>
        ))}
      </fieldset>
      <select
        className="filters__select"
        aria-label="Signal"
        value={filters.signal}
        onChange={(e) => {
          const signal = SIGNAL_OPTIONS.find(([v]) => v === e.target.value)?.[0];
          if (signal) setFilters({ signal });
        }}
      >
        {SIGNAL_OPTIONS.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
      <select
        className="filters__select"
        aria-label="Review"
        value={filters.review}
        onChange={(e) => {
          const review = REVIEW_OPTIONS.find(([v]) => v === e.target.value)?.[0];
          if (review) setFilters({ review });
        }}
      >
        {REVIEW_OPTIONS.map(([v, label]) => (
          <option key={v} value={v}>
            {label}
          </option>
        ))}
      </select>
      {reviewNote && <span className="faint">{reviewNote}</span>}
      <select
        className="filters__select"
        aria-label="Finding code"
        value={filters.code ?? ''}
        onChange={(e) => setFilters({ code: codes.find((c) => c.code === e.target.value)?.code ?? null })}
      >
        <option value="">Any finding code</option>
        {codes.map((c) => (
          <option key={c.code} value={c.code} title={FINDING_INFO[c.code].title}>
            {c.code} ({formatCount(c.rollouts)}
            {c.group ? ', group' : ''})
          </option>
        ))}
      </select>
      <label className="filters__check">
        <input type="checkbox" checked={filters.hasFindings} onChange={(e) => setFilters({ hasFindings: e.target.checked })} />
        Has findings
      </label>
      <label className="filters__check">
        <input type="checkbox" checked={filters.hasRegressions} onChange={(e) => setFilters({ hasRegressions: e.target.checked })} />
        Has regressions
      </label>
      <span className="filters__count" aria-live="polite">
        {filtered && (
          <>
            <strong>{formatCount(shown)}</strong> of {formatCount(total)} rollouts
          </>
        )}
      </span>
      {filtered && (
        <button type="button" className="link-button" onClick={clearFilters}>
          Clear filters
        </button>
      )}
      <span className="filters__end">
        <AdvantageModeToggle drGrpo={drGrpo} />
      </span>
    </search>
  );
}
