import type { Cohort } from '../../analysis';
import type { CohortChoices } from './cohortChoices';

/** One side's cohort: a policy version, a training-step range, or a file. */
export function CohortPicker({
  label,
  cohort,
  choices,
  onChange,
}: {
  label: string;
  cohort: Cohort | null;
  choices: CohortChoices;
  onChange: (c: Cohort) => void;
}) {
  const kind = cohort?.kind ?? 'policy';
  const switchTo = (k: Cohort['kind']) => {
    if (k === 'policy' && choices.policies[0] !== undefined) onChange({ kind: 'policy', policy: choices.policies[0] });
    if (k === 'file' && choices.files[0] !== undefined) onChange({ kind: 'file', file: choices.files[0] });
    if (k === 'steps' && choices.steps) onChange({ kind: 'steps', from: choices.steps[0], to: choices.steps[1] });
  };
  return (
    <fieldset className="cohort">
      <legend>{label}</legend>
      <select aria-label={`${label}: compare by`} value={kind} onChange={(e) => switchTo(e.target.value as Cohort['kind'])}>
        <option value="policy" disabled={choices.policies.length === 0}>
          policy version
        </option>
        <option value="steps" disabled={choices.steps === null}>
          training steps{choices.steps === null ? ' (no record states one)' : ''}
        </option>
        <option value="file">file</option>
      </select>
      {cohort?.kind === 'policy' && (
        <select
          aria-label={`${label}: policy version`}
          value={cohort.policy}
          onChange={(e) => onChange({ kind: 'policy', policy: e.target.value })}
        >
          {choices.policies.map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
      )}
      {cohort?.kind === 'file' && (
        <select aria-label={`${label}: file`} value={cohort.file} onChange={(e) => onChange({ kind: 'file', file: e.target.value })}>
          {choices.files.map((f) => (
            <option key={f}>{f}</option>
          ))}
        </select>
      )}
      {cohort?.kind === 'steps' && (
        <>
          <input
            type="number"
            aria-label={`${label}: from step`}
            min={0}
            value={cohort.from}
            onChange={(e) => e.target.value !== '' && onChange({ ...cohort, from: Math.max(0, Math.floor(Number(e.target.value))) })}
          />
          <span>to</span>
          <input
            type="number"
            aria-label={`${label}: to step`}
            min={0}
            value={cohort.to}
            onChange={(e) => e.target.value !== '' && onChange({ ...cohort, to: Math.max(0, Math.floor(Number(e.target.value))) })}
          />
        </>
      )}
    </fieldset>
  );
}
