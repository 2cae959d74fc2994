import { type ChangeObject, diffLines } from 'diff';
import { type Rollout, type Step, stableStringify } from '../../format';
import type { Pass } from '../passes';
import { type Alignment, alignCalls, alignCallsPass } from './align';

/*
 * Two rollouts side by side (docs/adr/0016): their steps aligned (align.ts), each aligned pair's
 * difference of arguments and of observations, and where their generations first part.
 */

export type TextChange = Pick<ChangeObject<string>, 'value' | 'added' | 'removed'>;

/** Past this many edits a line diff is given up (both texts are then shown whole): a diff must stay cheap. */
const MAX_EDIT_LENGTH = 2000;

export function alignRollouts(a: Rollout, b: Rollout): Alignment {
  return alignCalls(a.steps ?? [], b.steps ?? []);
}

/** `alignRollouts` as a pass, for a huge rollout's page to run in slices. */
export function alignRolloutsPass(a: Rollout, b: Rollout): Pass<Alignment> {
  return alignCallsPass(a.steps ?? [], b.steps ?? []);
}

/** Arguments as indented JSON with sorted keys, so a line diff shows which argument changed. */
export function argsText(step: Step): string {
  return JSON.stringify(JSON.parse(stableStringify(step.args ?? {})), null, 2);
}

/** Line changes from `a` to `b`, or null when they differ too much to diff cheaply. */
export function textChanges(a: string, b: string): TextChange[] | null {
  const changes = diffLines(a, b, { maxEditLength: MAX_EDIT_LENGTH });
  return changes ? changes.map(({ value, added, removed }) => ({ value, added, removed })) : null;
}

export interface GenerationSide {
  /** 0-based segment. */
  segment: number;
  /** Tokens generated, and the sum and mean of their behaviour log-probabilities. */
  tokens: number;
  sumLogprob: number;
  meanLogprob: number | null;
  /** The first generated token that differs from the other side's (null when this side ran out first). */
  token: { index: number; id: number; text: string | null; logprob: number | null } | null;
}

export interface GenerationDivergence {
  segment: number;
  /** Index of the first token where the two generations differ. */
  index: number;
  a: GenerationSide;
  b: GenerationSide;
}

function side(r: Rollout, segment: number, index: number): GenerationSide {
  const seg = r.segments[segment];
  const lp = seg?.old_logprobs ?? [];
  const ids = seg?.generated_ids ?? [];
  const sum = lp.reduce((s, x) => s + x, 0);
  const id = ids[index];
  return {
    segment,
    tokens: ids.length,
    sumLogprob: sum,
    meanLogprob: lp.length > 0 ? sum / lp.length : null,
    token: id === undefined ? null : { index, id, text: seg?.generated_tokens?.[index] ?? null, logprob: lp[index] ?? null },
  };
}

/**
 * The first generation (by segment order) whose tokens differ between the two rollouts, and the first
 * token where they do: both rollouts of a task usually share the prompt, so this is where their sampling
 * first went apart. Null when both have no token ids or every shared generation is identical.
 */
export function firstDivergentGeneration(a: Rollout, b: Rollout): GenerationDivergence | null {
  const n = Math.min(a.segments.length, b.segments.length);
  for (let s = 0; s < n; s++) {
    const ga = a.segments[s]?.generated_ids ?? [];
    const gb = b.segments[s]?.generated_ids ?? [];
    if (ga.length === 0 && gb.length === 0) continue;
    let k = 0;
    while (k < ga.length && k < gb.length && ga[k] === gb[k]) k++;
    if (k === ga.length && k === gb.length) continue;
    return { segment: s, index: k, a: side(a, s, k), b: side(b, s, k) };
  }
  return null;
}
