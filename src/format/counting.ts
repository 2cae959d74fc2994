import { lazily } from './lazily';

/*
 * Counting words, the one place they are made: the run list, the CLI report and finding messages all
 * say "1 rollout", "1,204 tokens" the same way.
 */

/**
 * Built on first use, and only for a number that is not a safe integer: a page's first Intl object costs
 * 40-70 ms of its thread (ICU's data, once per browser process), and this one was built when the script
 * loaded, on the page and in every worker whose script holds it: before the run page asked for its
 * manifest, before the file reader's workers could start (issue 25; docs/adr/0034).
 */
const intl = lazily(() => new Intl.NumberFormat('en-US'));

/** "1,204": a count with thousands separators (en-US, as `Intl.NumberFormat('en-US')` writes it). */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return intl().format(n);
  const digits = String(Math.abs(n));
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
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
