import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from './cli/main';

/*
 * The README is a front door (issue 30): a quick start, one line per command and a few headline figures,
 * each pointing at the page that holds the detail. These checks keep the door and the pages agreeing.
 */
const ROOT = new URL('../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');
const README = read('README.md');

/** The lines of `text` between the heading `## title` and the next heading of level 2 or above. */
function section(text: string, title: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(`## ${title}`);
  expect(start, `"## ${title}"`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && /^#{1,2} /.test(l));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** Table rows (not the header or rule) of a Markdown section, as trimmed cells. */
const tableRows = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[-| ]+\|$/.test(l))
    .slice(1)
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replaceAll(' ', '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The text with fenced blocks blanked out, line count kept (a `#` there is a comment, not a heading). */
const withoutFences = (markdown: string) => markdown.replace(/^\s*```[\s\S]*?^\s*```/gm, (block) => block.replace(/[^\n]/g, ''));

/** Also code spans emptied: neither holds a link. */
const withoutCode = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, '``');

describe('README.md quick start', () => {
  it('runs what package.json and CI define', () => {
    const quick = section(README, 'Quick start');
    expect(quick).toMatch(/^npm ci && npm start +# the inspector on http:\/\/127\.0\.0\.1:5173 /m);
    expect(quick).toMatch(/^npm test +# /m);
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(/--host 127\.0\.0\.1 --port 5173\b/);
    expect(scripts.test).toBeDefined();
    expect(scripts.trajscope).toBeDefined();
    // CI runs exactly the README's test command after installing.
    expect(read('.ci/run').trim().split('\n').slice(-2)).toEqual(['npm ci --no-audit --no-fund', 'npm test']);
  });

  it('opens the demo run with a view line whose directory is a run (two or more files)', () => {
    const line = /^npm run --silent trajscope -- view (\S+) +#/m.exec(section(README, 'Quick start'));
    expect(line?.[1]).toBe('public/demo/run');
    const files = readdirSync(new URL(`${line?.[1]}/`, ROOT)).filter((f) => /\.jsonl(\.gz)?$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(2);
  });

  it('shows one picture: a PNG under 250 KB', () => {
    const pictures = [...README.matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1] ?? '');
    expect(pictures).toEqual(['docs/img/run-page.png']);
    const bytes = readFileSync(new URL('docs/img/run-page.png', ROOT));
    expect([...bytes.subarray(1, 4)].map((b) => String.fromCharCode(b)).join('')).toBe('PNG');
    expect(bytes.length).toBeLessThan(250 * 1024);
  });
});

describe('README.md and docs/cli.md list every command', () => {
  let out = '';
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** `trajscope help`: each command's lines (its usage lines and their descriptions), by command name. */
  async function helpByCommand(): Promise<Map<string, string>> {
    out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      out += String(chunk);
      return true;
    });
    expect(await main(['help'])).toBe(0);
    const commands = new Map<string, string>();
    const body = out.slice(out.indexOf('\ncommands:\n'), out.indexOf('\n\n', out.indexOf('\ncommands:\n') + 1));
    let current = '';
    for (const line of body.split('\n')) {
      current = /^ {2}([a-z]+) /.exec(line)?.[1] ?? current;
      if (current !== '') commands.set(current, `${commands.get(current) ?? ''}\n${line}`);
    }
    return commands;
  }

  it('docs/cli.md has a heading and a usage line per command, with every flag the help names', async () => {
    const help = await helpByCommand();
    expect([...help.keys()]).toContain('lint');
    const cli = read('docs/cli.md');
    const headings = [...cli.matchAll(/^## `([a-z]+)`$/gm)].map((m) => m[1]);
    expect(new Set(headings)).toEqual(new Set(help.keys()));
    const usage = cli.split('```')[1] ?? '';
    for (const [command, text] of help) {
      const lines = usage.split('\n').filter((l) => l.startsWith(`npm run --silent trajscope -- ${command} `));
      expect(lines.length, `${command}'s usage line`).toBeGreaterThan(0);
      for (const flag of new Set(text.match(/--[a-z][a-z-]*/g))) {
        expect(lines.join(' '), `${command} ${flag} in docs/cli.md`).toContain(flag);
      }
    }
  });

  it("README.md's table has one row per command, linked to its heading in docs/cli.md", async () => {
    const help = await helpByCommand();
    const links = tableRows(section(README, 'Commands')).map((r) => r[0]);
    expect(links).toHaveLength(help.size);
    expect(new Set(links)).toEqual(new Set([...help.keys()].map((c) => `[\`${c}\`](docs/cli.md#${c})`)));
  });
});

describe("README.md's figures", () => {
  it('are at most six, each recorded in the section of docs/benchmarks.md it links to', () => {
    const rows = tableRows(section(README, 'Performance'));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(6);
    const bench = read('docs/benchmarks.md');
    const numbers = (text: string) => new Set(text.match(/\d[\d,]*(?:\.\d+)?/g));
    for (const [label = '', result = '', target = ''] of rows) {
      const anchor = /\]\(docs\/benchmarks\.md#([a-z0-9-]+)\)/.exec(label)?.[1];
      expect(anchor, label).toBeDefined();
      const title = bench.split('\n').find((l) => l.startsWith('## ') && [...anchors(l)][0] === anchor);
      expect(title, `${label}: a heading for #${anchor}`).toBeDefined();
      const recorded = numbers(section(bench, (title ?? '').slice(3)));
      for (const n of numbers(`${result} ${target}`)) expect(recorded, `${label}: ${n}`).toContain(n);
    }
    // A front door states figures, not their history.
    expect(section(README, 'Performance')).not.toMatch(/\bwas\b|20\d\d-\d\d-\d\d/);
  });
});

describe('relative links', () => {
  const pages = [
    'README.md',
    'public/demo/README.md',
    'docs/adr/README.md',
    ...readdirSync(new URL('docs/', ROOT))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];

  it.each(pages)('in %s name a file there, and an anchor a heading in it', (page) => {
    const here = new URL(page, ROOT);
    for (const [, href = ''] of withoutCode(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(href)) continue;
      const [path = '', anchor] = href.split('#');
      const target = path === '' ? here : new URL(path, here);
      expect(existsSync(target), `${page}: ${href}`).toBe(true);
      if (anchor !== undefined) {
        expect(statSync(target).isFile(), `${page}: ${href}`).toBe(true);
        expect(anchors(readFileSync(target, 'utf8')), `${page}: ${href}`).toContain(anchor);
      }
    }
  });
});
