const integer = new Intl.NumberFormat('en-US');

export function formatCount(n: number): string {
  return integer.format(n);
}

/** "1 rollout", "3 rollouts". */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${formatCount(n)} ${n === 1 ? noun : nouns}`;
}

/** "−0.56": a log-probability with a real minus sign, never "−0.00". */
export function formatLogprob(x: number, digits = 2): string {
  const s = x.toFixed(digits);
  return Number(s) === 0 ? (0).toFixed(digits) : s.replace('-', '−');
}

/** Rewards as recorded, trimmed to 4 decimals so 0.5 and 0.3333 both read naturally. */
export function formatReward(reward: number): string {
  return Number.isInteger(reward) ? reward.toFixed(1) : String(Number(reward.toFixed(4)));
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
