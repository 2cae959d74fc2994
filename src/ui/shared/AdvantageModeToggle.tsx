import { setAdvantageMode } from '../../state';
import { ADVANTAGE_MODES } from './advantageMode';
import './advantageToggle.css';

/** GRPO ↔ Dr. GRPO. The mode is in the URL (`adv=dr`), so every view and the rollout header agree. */
export function AdvantageModeToggle({ drGrpo }: { drGrpo: boolean }) {
  return (
    <fieldset className="adv-toggle">
      <legend className="adv-toggle__legend">Advantage</legend>
      {([false, true] as const).map((dr) => {
        const mode = dr ? ADVANTAGE_MODES.dr : ADVANTAGE_MODES.grpo;
        return (
          <button
            key={mode.label}
            type="button"
            className="adv-toggle__option"
            aria-pressed={drGrpo === dr}
            title={`${mode.label}: advantage = ${mode.formula}`}
            onClick={() => setAdvantageMode(dr)}
          >
            {mode.label}
          </button>
        );
      })}
    </fieldset>
  );
}
