/** How advantages are normalised; the URL's `adv=dr` picks Dr. GRPO (shared/trajectory-format.md §6). */
export const ADVANTAGE_MODES = {
  grpo: { label: 'GRPO', formula: '(r − mean) / (std + 1e-6)' },
  dr: { label: 'Dr. GRPO', formula: 'r − mean' },
} as const;

export function advantageMode(drGrpo: boolean) {
  return drGrpo ? ADVANTAGE_MODES.dr : ADVANTAGE_MODES.grpo;
}
