import type { Cohort, CohortRow } from '../../analysis';

/** What the two pickers offer: the policy versions, files and training steps the data has. */
export interface CohortChoices {
  policies: string[];
  files: string[];
  /** Smallest and largest recorded training step; null when no record states one. */
  steps: [number, number] | null;
}

export function cohortChoices(rows: readonly CohortRow[]): CohortChoices {
  const policies = new Set<string>();
  const files = new Set<string>();
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const r of rows) {
    if (r.policy !== null) policies.add(r.policy);
    files.add(r.file);
    if (r.step !== null) {
      lo = Math.min(lo, r.step);
      hi = Math.max(hi, r.step);
    }
  }
  return { policies: [...policies], files: [...files], steps: lo <= hi ? [lo, hi] : null };
}

/**
 * The comparison a person most likely wants when the URL names none: the first policy version against the
 * last, else the first file against the last, else the lower half of the training steps against the upper.
 */
export function defaultCohorts(c: CohortChoices): [Cohort, Cohort] | null {
  const first = <T>(xs: T[]) => xs[0] as T;
  const last = <T>(xs: T[]) => xs[xs.length - 1] as T;
  if (c.policies.length >= 2)
    return [
      { kind: 'policy', policy: first(c.policies) },
      { kind: 'policy', policy: last(c.policies) },
    ];
  if (c.files.length >= 2)
    return [
      { kind: 'file', file: first(c.files) },
      { kind: 'file', file: last(c.files) },
    ];
  if (c.steps && c.steps[1] > c.steps[0]) {
    const mid = Math.floor((c.steps[0] + c.steps[1]) / 2);
    return [
      { kind: 'steps', from: c.steps[0], to: mid },
      { kind: 'steps', from: mid + 1, to: c.steps[1] },
    ];
  }
  return null;
}

/** "finished 100% → 50%, budget_exhausted 0% → 50%": only the terminations whose share changed. */
export function mixChange(a: ReadonlyArray<[string, number]> | undefined, b: ReadonlyArray<[string, number]> | undefined): string {
  const ma = new Map(a ?? []);
  const mb = new Map(b ?? []);
  const pa = wholePercents(ma);
  const pb = wholePercents(mb);
  const parts: string[] = [];
  for (const t of new Set([...ma.keys(), ...mb.keys()])) {
    const x = ma.get(t) ?? 0;
    const y = mb.get(t) ?? 0;
    if (Math.abs(x - y) > 1e-9) parts.push(`${t} ${pa.get(t) ?? 0}% → ${pb.get(t) ?? 0}%`);
  }
  return parts.join(', ');
}

/**
 * Shares as whole percents that add up to 100 (largest remainder): 7/8 and 1/8 read 88 % and 12 %, not
 * 88 % and 13 % (a mix of 101 %). Ties go to the share listed first.
 */
export function wholePercents(shares: ReadonlyMap<string, number>): Map<string, number> {
  const entries = [...shares].map(([t, x], i) => ({ t, i, exact: x * 100, whole: Math.floor(x * 100 + 1e-9) }));
  const total = [...shares.values()].reduce((s, x) => s + x, 0);
  let left = Math.round(total * 100) - entries.reduce((s, e) => s + e.whole, 0);
  for (const e of [...entries].sort((p, q) => q.exact - q.whole - (p.exact - p.whole) || p.i - q.i)) {
    if (left <= 0) break;
    e.whole++;
    left--;
  }
  return new Map(entries.map((e) => [e.t, e.whole]));
}
