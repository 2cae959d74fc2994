import type { Rollout } from '../../format';
import { type CompactRollout, expandPass } from '../compact';
import { runInSlices } from '../slices';

/*
 * A huge record (isHugeRecord, src/load/scale.ts) is expanded in slices (src/load/slices.ts) and
 * handed to the views as a promise, as a run index's range read is: the rollout page shows how far the
 * expansion has got meanwhile. Below it, expanding costs a few ms and the record is there at once.
 */

interface Read {
  done: number;
}

const reads = new WeakMap<Promise<Rollout>, Read>();
const listeners = new Set<() => void>();

/** Expands a huge record in slices, `then` given the record; the promise's progress is `readProgress(promise)`. */
export function expandInSlices(compact: CompactRollout, then: (record: Rollout) => void): Promise<Rollout> {
  const read: Read = { done: 0 };
  const promise = runInSlices(expandPass(compact), {
    onProgress: (done) => {
      read.done = done;
      for (const l of listeners) l();
    },
  }).then((record) => {
    then(record);
    return record;
  });
  reads.set(promise, read);
  return promise;
}

/** How far a record's read has got (0..1), or null when it is not one of these. */
export function readProgress(read: Promise<Rollout> | null): number | null {
  return read ? (reads.get(read)?.done ?? null) : null;
}

/** Calls `onChange` whenever a read's progress moves. */
export function subscribeReadProgress(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}
