import { vi } from 'vitest';

/**
 * Counts the Intl objects made from now on (docs/adr/0031: none when a script loads): a browser process's
 * first one costs 40-70 ms of the thread that makes it (ICU's data). Returns the list the names go into.
 */
export function countIntlObjects(): string[] {
  const made: string[] = [];
  const real = {
    NumberFormat: Intl.NumberFormat,
    Collator: Intl.Collator,
    DateTimeFormat: Intl.DateTimeFormat,
    PluralRules: Intl.PluralRules,
  };
  for (const name of Object.keys(real) as (keyof typeof real)[]) {
    const Real = real[name] as unknown as new (...args: unknown[]) => object;
    // biome-ignore lint/complexity/useArrowFunction: the code under test calls it with `new`, which an arrow refuses
    vi.spyOn(Intl, name).mockImplementation(function (...args: unknown[]) {
      made.push(name);
      return new Real(...args);
    } as never);
  }
  return made;
}
