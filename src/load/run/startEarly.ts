import { shardWorker } from './shardDecoder';

/*
 * Imported first by main.tsx, so this runs before the rest of the app's modules are evaluated (200-250 ms
 * of the page's thread on a busy machine): a page that opens a run starts its shard worker now, and the
 * worker loads and compiles its script meanwhile, not after.
 */
if (new URLSearchParams(globalThis.location?.search ?? '').has('run')) shardWorker();
