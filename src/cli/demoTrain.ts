import { appendFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { toJsonl } from '../demo/generate';
import { type TrainRunOptions, trainRun } from '../demo/trainRun';

/** With --live, the pause between two lines of a step file, so a follower sees the run grow. */
const LIVE_LINE_MS = 150;

const STEP_FILE = /^step_\d+\.jsonl(\.gz)?$/;

export function stepFileName(step: number, gzip: boolean): string {
  return `step_${String(step).padStart(4, '0')}.jsonl${gzip ? '.gz' : ''}`;
}

/**
 * Gzip with fixed header fields (no name, mtime 0) so the same run gives the same bytes; zlib's
 * output can still change with its version, which is why tests compare the decompressed text.
 */
export function gzipText(text: string): Buffer {
  return gzipSync(Buffer.from(text), { level: 9 });
}

export interface TrainWriteOptions extends TrainRunOptions {
  out: string;
  gzip: boolean;
  live: boolean;
}

/** Runs the training loop and writes DIR/step_NNNN.jsonl[.gz], one file per update. Resolves to the files written. */
export async function writeTrainRun(o: TrainWriteOptions, log: (line: string) => void): Promise<string[]> {
  await mkdir(o.out, { recursive: true });
  const old = (await readdir(o.out)).filter((f) => STEP_FILE.test(f));
  if (old.length > 0) throw new Error(`${o.out} already holds ${old.length} step files (${old[0]}, …); use an empty directory`);
  const written: string[] = [];
  for await (const batch of trainRun(o)) {
    const name = stepFileName(batch.step, o.gzip);
    const path = join(o.out, name);
    const text = toJsonl(batch.records);
    if (o.gzip) await writeFile(path, gzipText(text));
    else if (!o.live) await writeFile(path, text);
    else {
      await writeFile(path, '');
      for (const line of text.split(/(?<=\n)/)) {
        await appendFile(path, line);
        await sleep(LIVE_LINE_MS);
      }
    }
    written.push(path);
    const mean = batch.rewardMean === null ? 'n/a' : batch.rewardMean.toFixed(3);
    log(`step ${batch.step}: reward mean ${mean}, ${batch.trainedTokens} tokens trained, ${batch.clippedTokens} clipped -> ${name}`);
  }
  return written;
}
