import { defineConfig } from 'vitest/config';
import { qwenTokenTablePlugin } from './scripts/qwenTokenTablePlugin.ts';

export default defineConfig({
  // The app's build names the Qwen3 token table; tests of the code that fetches it see the same name.
  plugins: [qwenTokenTablePlugin()],
  test: {
    // e2e/ belongs to Playwright; keep vitest to colocated unit tests.
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 60_000,
    // Vitest's default is one worker fewer than the cores: one, here. Two cut the suite from 376 s to
    // 300 s on this two-core machine (many tests wait on child processes).
    maxWorkers: 2,
  },
});
