import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES_FILE, defaultRules } from '../analysis';
import { READ_OPTIONS, type ReadOptionName } from '../format';
import { readChoiceOf } from '../state/readChoice';
import { readParams } from '../state/url';
import { CHECK_FLAGS, checkOptionsOf, READ_FLAGS, readOptionsOf, scanRulesOf } from './readOptions';

/*
 * One read-options spec for the command line and the page (issue 30): each option's value gets the same
 * verdict from the CLI's flag parsing (the real `readOptionsOf` / `checkOptionsOf` / `scanRulesOf`, and
 * parseArgs with the real flag table) and from the page's address (`readChoiceOf(readParams(search))`,
 * what `useReadOptions` returns). A refusal names the option on both sides; where both take the same
 * text, the page's problem is the CLI's words. Removing either side's check fails a row here.
 */

const dir = mkdtempSync(join(tmpdir(), 'trajscope-readopts-'));
let files = 0;
/** A file holding `text`, as `--map FILE` and `--rules FILE` take it. */
function file(text: string): string {
  const path = join(dir, `option-${files++}.json`);
  writeFileSync(path, text);
  return path;
}

/** What the CLI says of the flags, or null when it takes them. */
async function cliRefusal(args: string[]): Promise<string | null> {
  try {
    const { values } = parseArgs({ args, options: { ...READ_FLAGS, ...CHECK_FLAGS }, strict: true });
    checkOptionsOf(values);
    await readOptionsOf(values);
    await scanRulesOf(values.rules);
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const page = (params: Record<string, string>) => readChoiceOf(readParams(`?${new URLSearchParams(params)}`));

const GOOD_MAP = '{"reward": "score", "status": "outcome", "status_map": {"solved": "finished"}}';
const BAD_MAP = '{"status": "outcome", "status_map": {"solved": "win"}}';
const GOOD_RULES = JSON.stringify(DEFAULT_RULES_FILE);
const BAD_RULES = '{"rules": [{"id": "edits-tests", "when": {"step": 3}}]}';

interface Row {
  /** The flags given, and the page's parameters that mean the same (none where the page has no such option). */
  cli: () => string[];
  url: Record<string, string> | null;
  ok: boolean;
  /** For a good value: what the page reads it as. */
  read?: (choice: ReturnType<typeof page>) => unknown;
}

/** An option only the CLI takes (no URL parameter): a value it takes and one it refuses. */
function cliOnly<N extends ReadOptionName>(name: N, good: string, bad: string): Record<N, Row[]> {
  const flag = `--${READ_OPTIONS[name].flag}`;
  return { [name]: [true, false].map((ok) => ({ cli: () => [flag, ok ? good : bad], url: null, ok })) } as Record<N, Row[]>;
}

const rows: Record<ReadOptionName, Row[]> = {
  mapping: [
    { cli: () => ['--map', file(GOOD_MAP)], url: { map: GOOD_MAP }, ok: true, read: (c) => c.read.mapping !== undefined },
    { cli: () => ['--map', file(BAD_MAP)], url: { map: BAD_MAP }, ok: false },
    { cli: () => ['--map', file('{ not json')], url: { map: '{ not json' }, ok: false },
    { cli: () => ['--map', file('[1]')], url: { map: '[1]' }, ok: false },
  ],
  unknownAsFinished: [
    { cli: () => ['--unknown-as-finished'], url: { unknown: 'finished' }, ok: true, read: (c) => c.read.unknownAsFinished === true },
    { cli: () => ['--unknown-as-finished=yes'], url: { unknown: 'yes' }, ok: false },
    { cli: () => ['--unknown-as-finished=true'], url: { unknown: 'true' }, ok: false },
  ],
  scanners: [
    { cli: () => ['--rules', 'default'], url: { scan: 'default' }, ok: true, read: (c) => c.read.rules === defaultRules() },
    { cli: () => ['--rules', 'all'], url: { scan: 'all' }, ok: false },
  ],
  rules: [
    { cli: () => ['--rules', file(GOOD_RULES)], url: { rules: GOOD_RULES }, ok: true, read: (c) => c.read.rules?.length },
    { cli: () => ['--rules', file(BAD_RULES)], url: { rules: BAD_RULES }, ok: false },
    { cli: () => ['--rules', file('{"rules": 3}')], url: { rules: '{"rules": 3}' }, ok: false },
  ],
  ...cliOnly('from', 'verifiers-results', 'csv'),
  ...cliOnly('maxLineBytes', '1024', '1.5'),
  ...cliOnly('driftThreshold', '0', '-1'),
  ...cliOnly('isCap', '2.5', '0'),
};

const cases = Object.entries(rows).flatMap(([name, list]) =>
  list.map((row, i) => [`${name} #${i + 1}`, name as ReadOptionName, row] as const),
);

describe('one read-options spec: the CLI flag and the URL parameter give one verdict', () => {
  it('has a row for every option, and a URL parameter only where the page takes the option', () => {
    expect(Object.keys(rows).sort()).toEqual(Object.keys(READ_OPTIONS).sort());
    for (const [name, list] of Object.entries(rows)) {
      const param = READ_OPTIONS[name as ReadOptionName].param;
      for (const row of list) expect(row.url === null, name).toBe(param === null);
    }
  });

  it.each(cases)('%s', async (_, name, row) => {
    const option = READ_OPTIONS[name];
    const refusal = await cliRefusal(row.cli());
    if (row.ok) expect(refusal).toBeNull();
    else expect(refusal).toMatch(name === 'mapping' ? /the mapping .* is not valid/ : new RegExp(`--${option.flag}\\b`));
    if (row.url === null) return;
    const choice = page(row.url);
    if (row.ok) {
      expect(choice.problems).toEqual([]);
      expect(row.read?.(choice)).toBeTruthy();
      return;
    }
    // Refused: named by its parameter, and left off (the page reads as if it were absent).
    expect(choice.problems.length).toBeGreaterThan(0);
    for (const p of choice.problems) expect(p.startsWith(`${Object.keys(row.url)[0]}: `)).toBe(true);
    expect(choice.read).toEqual({});
    // Where both take the same text (not the CLI's value-less switch, nor `--rules WORD`, a file name there),
    // the page says what the CLI says.
    if (name === 'mapping' || name === 'rules') {
      for (const p of choice.problems) expect(refusal).toContain(p.slice(p.indexOf(': ') + 2));
    }
  });

  it('says a refused switch in the spec’s words, the value shown as every error shows one', () => {
    expect(page({ unknown: 'yes', scan: 'all' }).problems).toEqual([
      'unknown: must be "finished", got "yes"',
      'scan: must be "default", got "all"',
    ]);
  });

  it('reads a number the page has no parameter for as the CLI does: the default when absent', async () => {
    expect(checkOptionsOf({})).toEqual({
      driftThreshold: READ_OPTIONS.driftThreshold.fallback,
      isCap: READ_OPTIONS.isCap.fallback,
      unknownAsFinished: false,
    });
    // An address naming a CLI-only option changes nothing on the page.
    expect(page({ 'is-cap': '0', 'max-line-bytes': 'x' })).toMatchObject({ read: {}, problems: [] });
  });
});
