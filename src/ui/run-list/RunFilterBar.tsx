import { useEffect, useState } from 'react';
import { FINDING_INFO, type FindingCode, formatCount, terminationInfo } from '../../analysis';
import { filterMismatchAbove, isFiltered, type RunFilters, type SignalFilter, useRunFiltersActions, useSelection } from '../../state';
import { AdvantageModeToggle } from '../shared/AdvantageModeToggle';
import { ExportButton } from '../shared/export/ExportButton';
import { filtersWhere } from '../shared/export/exportText';
import { ScannersControl } from './ScannersControl';

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
  /** Some rollout has a training record: offer the mismatch filter. */
  mismatch: boolean;
  /** The rows the filters show (indices into the run list's rollouts): what Export writes. */
  shownRows: readonly number[];
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
export function RunFilterBar({ filters, terminations, codes, shown, total, drGrpo, reviewNote, mismatch, shownRows }: Props) {
  const { setFilters, toggleTermination, clearFilters } = useRunFiltersActions();
  const filtered = isFiltered(filters);
  const { steps } = useSelection();
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
      <ScannersControl />
      {mismatch && <MismatchFilter above={filters.mismatchAbove ?? null} />}
      <span className="filters__count" aria-live="polite">
        {filtered && (
          <>
            <strong>{formatCount(shown)}</strong> of {formatCount(total)} rollouts
          </>
        )}
      </span>
      {filtered && (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            clearFilters();
            filterMismatchAbove(null);
          }}
        >
          Clear filters
        </button>
      )}
      <span className="filters__end">
        <ExportButton className="filters__export" indices={shownRows} where={filtersWhere(filters, steps)} query={null} />
        <AdvantageModeToggle drGrpo={drGrpo} />
      </span>
    </search>
  );
}

/**
 * "Mismatch above X": max |d| (§10) above X nats. Typed text is kept while it is not a number yet; the URL
 * (`mis=`) holds the applied value.
 */
function MismatchFilter({ above }: { above: number | null }) {
  const [text, setText] = useState(above === null ? '' : String(above));
  useEffect(() => {
    setText((t) => (Number(t) === above && t.trim() !== '' ? t : above === null ? '' : String(above)));
  }, [above]);
  const invalid = text.trim() !== '' && !(Number(text) >= 0);
  return (
    <label
      className="filters__check"
      title="Only rollouts whose training-inference mismatch (max |trainer − sampler log-prob|, §10) is above this many nats"
    >
      Mismatch max |d| above
      <input
        type="text"
        inputMode="decimal"
        className="filters__number"
        aria-label="Mismatch above"
        aria-invalid={invalid}
        placeholder="nats"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const t = e.target.value.trim();
          if (t === '') filterMismatchAbove(null);
          else if (Number(t) >= 0) filterMismatchAbove(Number(t));
        }}
      />
    </label>
  );
}
