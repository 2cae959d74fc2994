// The line readers, v1 and every format converter: most of format's bytes. The page parses in its workers,
// so its own thread imports this only where it reads records itself, through `lineReading()` in index.ts:
// the startup script stays without them (issue 25).
export { createLineParser } from './adapters';
export { parseLine } from './jsonl';
