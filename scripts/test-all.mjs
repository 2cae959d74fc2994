// `npm test`: typecheck, lint, unit tests, build, e2e in headless Chromium, in that order.
// Every stage runs even after a failure, so one run shows everything that is wrong; the last line is
// `N passed, N failed` over unit and e2e tests, which is what CI reads.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { CHROMIUM_PATH, chromiumMissing, INSTALL_HINT } from './chromium.mjs';

const RESULTS = 'test-results';
const UNIT_JSON = `${RESULTS}/unit.json`;
const E2E_JSON = `${RESULTS}/e2e.json`;

function stage(name, cmd, args, env = {}) {
  console.log(`\n=== ${name}: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = r.status === 0;
  if (!ok) console.log(`=== ${name} FAILED (exit ${r.status ?? r.signal})`);
  return ok;
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

mkdirSync(RESULTS, { recursive: true });
rmSync(UNIT_JSON, { force: true });
rmSync(E2E_JSON, { force: true });

const failedStages = [];
const run = (name, cmd, args, env) => stage(name, cmd, args, env) || failedStages.push(name);

run('typecheck', 'npx', ['tsc', '-b']);
// `npm run lint`: Biome (style, layers, views) and knip (unused files, exports and dependencies).
run('lint', 'npm', ['run', '--silent', 'lint']);
run('unit', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${UNIT_JSON}`]);
// Built by `npm ci` already (prepare) when dist/ matches the sources: then this stage only checks that.
const built = stage('build', 'node', ['scripts/build-app.mjs']);
if (!built) failedStages.push('build');
if (chromiumMissing()) {
  console.log(`\n=== e2e SKIPPED: Chromium not found at ${CHROMIUM_PATH}.\n${INSTALL_HINT}`);
  failedStages.push('e2e (no Chromium)');
} else if (built) {
  run('e2e', 'npx', ['playwright', 'test']);
}

const unit = readJson(UNIT_JSON);
const e2e = readJson(E2E_JSON);
if (!unit) failedStages.push('unit (no report)');
if (!e2e && built && !chromiumMissing()) failedStages.push('e2e (no report)');
const passed = (unit?.numPassedTests ?? 0) + (e2e?.stats?.expected ?? 0) + (e2e?.stats?.flaky ?? 0);
const failed = (unit?.numFailedTests ?? 0) + (e2e?.stats?.unexpected ?? 0);

console.log('');
console.log(`unit: ${unit?.numPassedTests ?? 0} passed, ${unit?.numFailedTests ?? 0} failed`);
console.log(`e2e: ${(e2e?.stats?.expected ?? 0) + (e2e?.stats?.flaky ?? 0)} passed, ${e2e?.stats?.unexpected ?? 0} failed`);
if (failedStages.length > 0) console.log(`failed stages: ${failedStages.join(', ')}`);
if (existsSync(`${RESULTS}/screenshots`)) console.log(`screenshots: ${RESULTS}/screenshots/`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failedStages.length > 0 || failed > 0 ? 1 : 0);
