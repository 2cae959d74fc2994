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
