import { expect, type Page, test } from '@playwright/test';

/*
 * Issue 25: the page's own scripts before its first rows (or a run's first chart) carry no format converter
 * and no Parquet reader: the workers parse files and decode shards, and the page imports those parts only
 * where it reads records itself. A static import of them from a module the page starts with (or through an
 * index.ts the bundler must keep whole) puts them back into the startup chunks, and this fails.
 */

/** Strings that only the converters' code (lineParser.ts, convertValue.ts) and hyparquet hold, as built. */
const MARKERS = {
  converters: ', after conversion: ',
  lineParser: 'more lines before the first record failed too',
  parquet: 'parquet file invalid',
};

/** The scripts the page and its workers fetched until `mark`, with their text. */
async function scriptsUntil(page: Page, path: string, mark: string): Promise<{ page: Map<string, string>; workers: Map<string, string> }> {
  await page.addInitScript((mark) => {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.name === mark) (window as { __markAt?: number }).__markAt ??= e.startTime;
    }).observe({ type: 'mark', buffered: true });
  }, mark);
  const bodies: Promise<[string, string] | null>[] = [];
  let done = false;
  page.on('response', (r) => {
    if (done || r.request().resourceType() !== 'script') return;
    const name = new URL(r.url()).pathname;
    bodies.push(
      r.text().then(
        (text): [string, string] => [name, text],
        // A worker ended once its load was done (the next one is started then) takes its scripts' bodies
        // with it: a worker's script may be unreadable, never one of the page's own.
        (e: unknown) => {
          if (name.includes('.worker')) return null;
          throw e;
        },
      ),
    );
  });
  await page.goto(path);
  await page.waitForFunction(() => (window as { __markAt?: number }).__markAt !== undefined);
  done = true;
  const all = (await Promise.all(bodies)).filter((b): b is [string, string] => b !== null);
  const isWorker = ([name]: [string, string]) => name.includes('.worker');
  return { page: new Map(all.filter((s) => !isWorker(s))), workers: new Map(all.filter(isWorker)) };
}

function holding(scripts: Map<string, string>, marker: string): string[] {
  return [...scripts].filter(([, text]) => text.includes(marker)).map(([name]) => name);
}

test('the demo page loads no converter before its first rows', async ({ page }) => {
  const scripts = await scriptsUntil(page, '/', 'trajscope:first-rows');
  expect(scripts.page.size).toBeGreaterThan(0);
  // The markers are real strings of this build: the parse worker, which converts, holds them.
  expect(holding(scripts.workers, MARKERS.converters).length, 'a worker holds the converter marker').toBeGreaterThan(0);
  expect(holding(scripts.workers, MARKERS.lineParser).length, 'a worker holds the line parser marker').toBeGreaterThan(0);
  for (const marker of Object.values(MARKERS)) expect(holding(scripts.page, marker), `page scripts holding "${marker}"`).toEqual([]);
});

test('a run page loads no converter and no Parquet reader before its first chart', async ({ page }) => {
  const scripts = await scriptsUntil(page, '/?run=/demo/run-index/', 'trajscope:run-chart');
  expect(scripts.page.size).toBeGreaterThan(0);
  // The shard worker decodes the run's index with hyparquet: the marker is in this build.
  expect(holding(scripts.workers, MARKERS.parquet).length, 'a worker holds the Parquet marker').toBeGreaterThan(0);
  for (const marker of Object.values(MARKERS)) expect(holding(scripts.page, marker), `page scripts holding "${marker}"`).toEqual([]);
});
