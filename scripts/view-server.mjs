// Starts the real `trajscope view` on a free port for a bench script; resolves with its URL and process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * `trajscope view PATHS --port 0`, resolved once it prints the URL it serves. `root` is the checkout whose
 * `bin/trajscope.mjs` (and so whose dist/) serves: this one by default, another commit's worktree for
 * `npm run bench -- --against REF`.
 */
export function startView(paths, root = '.') {
  const server = spawn(process.execPath, [join(root, 'bin/trajscope.mjs'), 'view', ...paths, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (c) => {
      out += c;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) resolve({ base: m[1], server });
    });
    server.on('exit', (code) => reject(new Error(`trajscope view exited ${code}`)));
  });
}
