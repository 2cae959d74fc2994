import { shardWorker } from './shardDecoder';

/*
 * Imported first by main.tsx, and a chunk of its own (vite.config.ts), so this runs before the app's
 * other modules are evaluated (200-250 ms of the page's thread on a busy machine): a page that opens a
 * run starts its shard worker now, and the worker loads and compiles its script meanwhile, not after.
 * Inside the page's main chunk it ran after the chunks that chunk imports (state, react-dom, ...).
 */
if (new URLSearchParams(globalThis.location?.search ?? '').has('run')) shardWorker();
