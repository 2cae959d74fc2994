#!/usr/bin/env node
// The CLI is TypeScript shared with the app; tsx compiles it on load so a checkout runs it after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const fail = (e) => {
  process.stderr.write(`trajscope: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
// Any failure the commands did not catch is exit 2 with a message: 1 means "lint found errors".
try {
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  fail(e);
}
