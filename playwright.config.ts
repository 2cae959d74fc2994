import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './scripts/chromium.mjs';

// E2E_PORT lets two runs (say, a fresh-clone check beside a working tree) share the machine.
const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  // Playwright empties its output folder on start; keep it apart from test-results/unit.json and the
  // screenshots, which other stages write there first.
  outputDir: 'test-results/playwright',
  forbidOnly: !!process.env.CI,
  // One worker: each test's Chromium (page, workers, GPU process) and the preview server already use both
  // of this machine's cores. Measured on 21 tests: 159 s with one worker, 177 s with two, and with two a
  // page's first render went past the 5 s expectation limit (CI failed on that once).
  workers: 1,
  // A few tests slow the CPU down on purpose or load 20,000 rows; they take 10-30 s.
  timeout: 60_000,
  // A shared machine's noise: 10 s for what takes 2-3 s alone. A real failure still fails, only later.
  expect: { timeout: 10_000 },
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    viewport: { width: 1280, height: 800 },
    // Browsers cannot be downloaded here: drive Debian's Chromium (shared/toolchain.md).
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  // Tests run against the production build; `npm test` runs `vite build` first.
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
});
