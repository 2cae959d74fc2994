/**
 * The five termination causes of the v1 contract (shared/trajectory-format.md §4), in its order: the
 * three in the policy signal, then the two excluded from it. Anything else is kept as the source wrote it.
 * The one list: adapters map onto it, analysis says what each means, views sort and draw by it.
 */
export const TERMINATIONS = ['finished', 'budget_exhausted', 'invalid_call', 'infra_failure', 'cancelled'] as const;

export type Termination = (typeof TERMINATIONS)[number];
