/** How advantages are normalised; the URL's `adv=dr` picks Dr. GRPO (shared/trajectory-format.md §6). */
export const ADVANTAGE_MODES = {
  grpo: { label: 'GRPO', formula: '(r − mean) / (std + 1e-6)' },
  dr: { label: 'Dr. GRPO', formula: 'r − mean' },
} as const;

export function advantageMode(drGrpo: boolean) {
  return drGrpo ? ADVANTAGE_MODES.dr : ADVANTAGE_MODES.grpo;
}

/** Three decimals, as the rollout header shows them. */
export function formatAdvantage(a: number): string {
  // -0.000 reads as a signal where there is none.
  const s = a.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}
