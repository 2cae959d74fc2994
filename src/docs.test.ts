import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from './format/adapters/detect';
import { FORMAT_INFO } from './format/adapters/formatInfo';
import { FORMAT_IDS, type FormatId } from './format/adapters/types';

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

describe('docs/formats.md', () => {
  it('has one row per format, in order, as formatInfo.ts describes it', () => {
    const text = readFileSync(new URL('../docs/formats.md', import.meta.url), 'utf8');
    const lines = text.split('\n');
    const head = lines.indexOf('| `--from` | what | file | read |');
    const end = lines.indexOf('', head);
    const rows = lines.slice(head + 2, end).map((l) => l.split(' | ').map((c) => c.replace(/^\| ?| ?\|$/g, '')));
    expect(rows.map((r) => r[0])).toEqual(FORMAT_IDS.map((id) => `\`${id}\``));
    for (const [id, what, file, read] of rows) {
      const docs = FORMAT_INFO[(id ?? '').replaceAll('`', '') as FormatId].docs;
      expect({ what, file, read }, id).toEqual(docs);
    }
  });

  it('detects every format that has content of its own, once each', () => {
    const detected = RULES.map(([id]) => id);
    expect(new Set(detected).size).toBe(detected.length);
    // An Inspect .eval is a zip, told by its bytes; a mapped file by the user's choice.
    expect(FORMAT_IDS.filter((id) => !detected.includes(id))).toEqual(['inspect-eval', 'mapped']);
  });
});
