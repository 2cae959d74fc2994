// Writes a large synthetic run (a directory of step files, as a training job writes) for the index bench:
//   node scripts/make-large-run.mjs OUT_DIR TOTAL_MB [FILES] [SEED]
// Each file is the bench generator's (make-large-jsonl.mjs) with its own seed, named step_NNNN.jsonl so
// the training step comes from the file name.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeLargeJsonl } from './make-large-jsonl.mjs';

export async function writeLargeRun(dir, totalMb, files = 8, seed = 1) {
  mkdirSync(dir, { recursive: true });
  let rollouts = 0;
  let bytes = 0;
  for (let f = 0; f < files; f++) {
    const out = join(dir, `step_${String(f).padStart(4, '0')}.jsonl`);
    const written = await writeLargeJsonl(out, totalMb / files, Number(seed) * 1000 + f);
    rollouts += written.rollouts;
    bytes += written.bytes;
  }
  return { rollouts, bytes };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [out, totalMb, files = '8', seed = '1'] = process.argv.slice(2);
  if (!out || !totalMb) {
    console.error('usage: node scripts/make-large-run.mjs OUT_DIR TOTAL_MB [FILES] [SEED]');
    process.exit(2);
  }
  const { rollouts, bytes } = await writeLargeRun(out, Number(totalMb), Number(files), seed);
  console.log(`${out}: ${rollouts} rollouts, ${(bytes / 2 ** 20).toFixed(0)} MB in ${files} files`);
}
