import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/trajscope.mjs', import.meta.url));

/**
 * The real `trajscope view PATHS --port 0` (a subprocess serving the built app in dist/); `onChild` gets
 * the process at once, so a test can stop it even when it never comes up. Resolves with the URL it serves.
 */
export function startView(paths: string[], onChild: (child: ChildProcess) => void): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'view', ...paths, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  onChild(child);
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
      const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`trajscope view exited ${code}: ${out}`)));
  });
}
