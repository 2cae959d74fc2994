import { lazily } from '../../format';

/** "−0.56": a log-probability with a real minus sign, never "−0.00". */
export function formatLogprob(x: number, digits = 2): string {
  const s = x.toFixed(digits);
  return Number(s) === 0 ? (0).toFixed(digits) : s.replace('-', '−');
}

/** A reward inside a sentence ("reward 1", "R = 0.3333"): as recorded, trimmed to 4 decimals. */
export function rewardNumber(reward: number): string {
  return Number.isInteger(reward) ? String(reward) : String(Number(reward.toFixed(4)));
}

/** A reward in a table cell: as recorded, trimmed to 4 decimals, a whole number with one (1.0), so 0.5 and 1.0 line up. */
export function formatReward(reward: number): string {
  return Number.isInteger(reward) ? reward.toFixed(1) : rewardNumber(reward);
}

/** An advantage to three decimals, as the run list, the groups and the rollout header all show it. */
export function formatAdvantage(a: number): string {
  // -0.000 reads as a signal where there is none.
  const s = a.toFixed(3);
  return s === '-0.000' ? '0.000' : s;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** Built on first use: a page's first Intl object costs 40-70 ms (formatCount, src/format/counting.ts). */
const compact = lazily(() => new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }));

/**
 * A count for a narrow column: as it is up to 99999, then "120K", "1M" (a 1,000,000-step rollout's
 * counts were cut off at the column's edge). The exact number goes in the cell's title.
 */
export function formatCountShort(n: number): string {
  return n < 100_000 ? String(n) : compact().format(n);
}
