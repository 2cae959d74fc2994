/*
 * Counting words, the one place they are made: the run list, the CLI report and finding messages all
 * say "1 rollout", "1,204 tokens" the same way.
 */

const integer = new Intl.NumberFormat('en-US');

/** "1,204": a count with thousands separators. */
export function formatCount(n: number): string {
  return integer.format(n);
}

/** "1 rollout", "3 rollouts", "2 bad lines"; `nouns` for an irregular plural. */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : nouns}`;
}

/**
 * A statistic such as §10's (|d|, k3, a ratio): four significant digits, values under 1e-3 in exponent form
 * ("3.64e-4"), 0 plainly, a dash for none. The CLI summary, the run list and the Mismatch tab share it.
 */
export function formatStatistic(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined) return '—';
  if (x === 0) return '0';
  if (Math.abs(x) < 1e-3) return x.toExponential(Math.max(1, digits - 2));
  const s = x.toPrecision(digits);
  return s.includes('.') && !s.includes('e') ? s.replace(/\.?0+$/, '') : s;
}
