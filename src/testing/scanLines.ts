import { concat, type LineRun } from '../format';

const dec = new TextDecoder();

/**
 * The lines of a run found by scanning its bytes for newlines, numbered from `firstLine`, each decoded
 * on its own (as the tests decode what `forEachLine` cuts): what a run's `ends` must cut it into, worked
 * out without them.
 */
export function scanLines(run: LineRun): [string, number][] {
  const bytes = concat(run.parts);
  const out: [string, number][] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    out.push([dec.decode(bytes.subarray(start, nl)), run.firstLine + out.length]);
    start = nl + 1;
  }
  return out;
}
