import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/* The docs' indexes list what is there (issue 30: an ADR index, kept true by a check). */
const ADR = new URL('../docs/adr/', import.meta.url);

describe('docs/adr/README.md', () => {
  it('lists every decision record once, under its own title', () => {
    const index = readFileSync(new URL('README.md', ADR), 'utf8');
    const files = readdirSync(ADR).filter((f) => /^\d{4}-.+\.md$/.test(f));
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const title = (readFileSync(new URL(f, ADR), 'utf8').split('\n')[0] ?? '').replace(/^# \d{4}: /, '');
      expect(index.split(`](${f})`).length - 1, `${f} listed once`).toBe(1);
      expect(index, `${f}'s title`).toContain(`| ${title} |`);
    }
  });
});
