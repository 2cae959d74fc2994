import { CHROMIUM_PATH, chromiumMissing, INSTALL_HINT } from './chromium.mjs';

if (chromiumMissing()) {
  console.error(`Chromium not found at ${CHROMIUM_PATH}; the browser tests need it.\n${INSTALL_HINT}`);
  process.exit(1);
}
