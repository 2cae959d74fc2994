#!/usr/bin/env node
// The CLI is TypeScript shared with the app; tsx compiles it on load so a checkout runs it after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
