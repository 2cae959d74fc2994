import { shardWorker } from './shardDecoder';

/*
 * Imported first by main.tsx, and a chunk of its own (vite.config.ts), so this runs before the app's
 * other modules are evaluated (200-250 ms of the page's thread on a busy machine): a page that opens a
 * run starts its shard worker now, and the worker loads and compiles its script meanwhile, not after.
 * Inside the page's main chunk it ran after the chunks that chunk imports (state, react-dom, ...).
 */
// `run=` as state/url.ts reads it (an empty one opens nothing); not imported from there, since state
// imports load and its chunk is what this one runs before.
if (new URLSearchParams(globalThis.location?.search ?? '').get('run')) shardWorker();
