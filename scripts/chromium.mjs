// Where Playwright finds Chromium. Browser downloads fail on our machines, so Debian's build is used.
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Headless flags for this machine: without the networking ones Chromium keeps dialling out and being refused. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const INSTALL_HINT =
  "Install Debian's Chromium:  sudo apt-get install -y --no-install-recommends chromium fonts-liberation\n" +
  'or point CHROMIUM_PATH at a Chromium binary.';

export function chromiumMissing() {
  return !existsSync(CHROMIUM_PATH);
}
