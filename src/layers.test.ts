import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/*
 * The one-way import rule (format -> analysis -> load -> state -> ui; cli beside load), and zod only through
 * src/format/zod.ts, are enforced by Biome overrides in biome.json. These cases lint probe files laid out like src/ in a scratch folder with the real config,
 * so the rule is shown to fail on a violation and to pass on the allowed direction.
 */
const ROOT = join(import.meta.dirname, '..');
const BIOME = join(ROOT, 'node_modules/.bin/biome');

const cases: [file: string, specifier: string, allowed: boolean][] = [
  ['src/format/probe.ts', '../analysis', false],
  ['src/format/probe.ts', 'react', false],
  ['src/analysis/probe.ts', '../format', true],
  ['src/analysis/probe.ts', '../format/schema', false],
  ['src/analysis/probe.ts', '../ui/App', false],
  ['src/analysis/probe.ts', 'zustand', false],
  ['src/load/probe.ts', '../analysis', true],
  ['src/load/probe.ts', '../state', false],
  ['src/state/probe.ts', '../load', true],
  ['src/state/probe.ts', '../ui/App', false],
  ['src/ui/run-list/probe.ts', '../../analysis', true],
  ['src/ui/run-list/probe.ts', '../../analysis/lint', false],
  ['src/ui/run-list/probe.ts', '../../cli/lint', false],
  ['src/ui/run-list/probe.ts', 'node:fs', false],
  ['src/demo/probe.ts', '../analysis', true],
  ['src/demo/probe.ts', '../ui/App', false],
  // No view folder imports another's: shared parts live in src/ui/shared; the shell composes views.
  ['src/ui/run-list/probe.ts', '../rollout/RolloutHeader', false],
  ['src/ui/rollout/steps/probe.ts', '../../tokens/layout', false],
  ['src/ui/tokens/probe.ts', '../roles', false],
  ['src/ui/shared/probe.ts', '../groups/GroupCard', false],
  ['src/ui/audit/probe.test.ts', '../run-list/filterRollouts', false],
  ['src/ui/tokens/probe.ts', './roles', true],
  ['src/ui/rollout/steps/probe.ts', '../RolloutHeader', true],
  ['src/ui/run-list/probe.ts', '../shared/format', true],
  ['src/ui/audit/probe.test.ts', '../../testing/builders', true],
  ['src/ui/probe.ts', './rollout/StepsView', true],
  // The command line: format, analysis, load and demo, and of the page only its URL grammar.
  ['src/cli/probe.ts', '../analysis', true],
  ['src/cli/runIndex/probe.ts', '../../load', true],
  ['src/cli/probe.ts', '../state/url', true],
  ['src/cli/probe.ts', '../state', false],
  ['src/cli/probe.ts', '../ui/App', false],
  ['src/cli/server/probe.ts', 'react', false],
  ['src/cli/probe.ts', '../testing/builders', false],
  ['src/cli/probe.test.ts', '../testing/builders', true],
  // zod only through src/format/zod.ts, which turns its JIT off before any schema is built.
  ['src/format/adapters/mapping/probe.ts', 'zod', false],
  ['src/format/adapters/mapping/probe.ts', '../../zod', true],
  ['src/analysis/probe.ts', 'zod', false],
  ['src/format/zod.ts', 'zod', true],
];

describe('one-way imports between layers, and none between views', () => {
  it('Biome rejects each import against the flow or across view folders and accepts each import with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-layers-'));
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    cases.forEach(([file, spec], i) => {
      const path = join(dir, file.replace('probe', `probe${i}`));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `import { x } from '${spec}';\nexport const y = x;\n`);
    });
    const out = await promisify(execFile)(BIOME, ['lint', '--vcs-enabled=false', '--reporter=json', 'src'], { cwd: dir }).then(
      (r) => r.stdout,
      (e: { stdout: string }) => e.stdout,
    );
    const flagged = new Set(
      (JSON.parse(out) as { diagnostics: { category: string; location: { path: string } }[] }).diagnostics
        .filter((d) => d.category === 'lint/style/noRestrictedImports')
        .map((d) => d.location.path),
    );
    const verdicts = cases.map(([file, spec], i) => [file, spec, !flagged.has(file.replace('probe', `probe${i}`))]);
    expect(verdicts).toEqual(cases);
  });
});

describe('the view-folder rule', () => {
  it('names every view folder under src/ui, at each depth a file of another view can import it from', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'biome.json'), 'utf8')) as {
      overrides: {
        includes?: string[];
        linter?: { rules?: { style?: { noRestrictedImports?: { options?: { patterns?: { group: string[]; message: string }[] } } } } };
      }[];
    };
    const groups = config.overrides.flatMap((o) =>
      (o.linter?.rules?.style?.noRestrictedImports?.options?.patterns ?? [])
        .filter((p) => p.message.includes('view folder'))
        .map((p) => p.group),
    );
    const views = readdirSync(join(ROOT, 'src/ui'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'shared')
      .map((d) => d.name);
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups)
      for (const view of views)
        for (const pattern of [`../${view}`, `../${view}/**`, `../../${view}`, `../../${view}/**`, `../../../${view}/**`])
          expect(group, `${view} in the view-folder rule`).toContain(pattern);
  });
});

describe('no import circle', () => {
  it('Biome rejects two modules that import each other (a value import), and not a type-only one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trajscope-cycles-'));
    copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
    const put = (file: string, text: string) => {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    };
    // The issue-30 circle's shape: a reader that imports the parser that dispatches to it.
    put('src/format/adapters/reader.ts', "import { parse } from './parser';\nexport const read = () => parse();\n");
    put('src/format/adapters/parser.ts', "import { read } from './reader';\nexport const parse = () => read();\n");
    put('src/format/adapters/typed.ts', "import type { Shape } from './shape';\nexport const made: Shape | null = null;\n");
    put('src/format/adapters/shape.ts', "import type { made } from './typed';\nexport type Shape = typeof made;\n");
    const out = await promisify(execFile)(BIOME, ['lint', '--vcs-enabled=false', '--reporter=json', 'src'], { cwd: dir }).then(
      (r) => r.stdout,
      (e: { stdout: string }) => e.stdout,
    );
    const flagged = (JSON.parse(out) as { diagnostics: { category: string; location: { path: string } }[] }).diagnostics
      .filter((d) => d.category === 'lint/suspicious/noImportCycles')
      .map((d) => d.location.path)
      .sort();
    expect(flagged).toEqual(['src/format/adapters/parser.ts', 'src/format/adapters/reader.ts']);
  });
});
