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
  workers: 2,
  // Two workers share this machine's two cores: a test that loads the 5 MB tokenizer or 20,000 rows takes
  // 10-15 s alone and over 30 s (the default limit) beside another heavy one; three such tests timed out
  // in CI runs in turn. Each test's own expectations keep their timeouts.
  timeout: 60_000,
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
