// The bare split-and-parse that the run index bench compares `trajscope index` with: read each file,
// split it into lines, JSON.parse each line, keep nothing. Imported by scripts/bench-index.mjs (one core),
// and run as a process of its own (`node scripts/split-parse.mjs FILE...`) to measure what two cores of
// this machine give the least work the index could do, the ceiling for its 2-job speed-up.
import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Splits and parses every line of `files`; returns the bytes read. */
export async function splitAndParse(files) {
  let bytes = 0;
  for (const f of files) {
    let rest = null;
    for await (const chunk of createReadStream(f, { highWaterMark: 1 << 20 })) {
      bytes += chunk.length;
      const buf = rest ? Buffer.concat([rest, chunk]) : chunk;
      let s = 0;
      for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10, s)) {
        JSON.parse(buf.toString('utf8', s, nl));
        s = nl + 1;
      }
      rest = s < buf.length ? buf.subarray(s) : null;
    }
  }
  return bytes;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await splitAndParse(process.argv.slice(2));
