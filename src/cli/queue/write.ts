import { constants } from 'node:fs';
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A queue file that must not be written where asked (a link, a directory); the message says which. */
export class QueueWriteRefused extends Error {}

/** A new file only (never one that is there, never through a link at its name). */
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * `RUN/.trajscope`, made (mode 755) when missing; a link or a file there is refused, as the view server
 * refuses it for the review log (docs/adr/0026): the queue is kept only inside the run.
 */
export async function runStateDir(run: string): Promise<string> {
  const dir = join(run, '.trajscope');
  let s = await lstat(dir).catch(() => null);
  if (s === null) {
    await mkdir(dir, { mode: 0o755 }).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
    s = await lstat(dir);
  }
  if (s.isSymbolicLink()) throw new QueueWriteRefused(`${dir} is a symbolic link: refused (the queue is kept only inside the run)`);
  if (!s.isDirectory()) throw new QueueWriteRefused(`${dir} is not a directory`);
  return dir;
}

/**
 * Writes `text` to `out` whole or not at all: into a new hidden file beside it (created exclusively, no
 * link followed), flushed, then renamed over `out`. A reader (the view server) sees the old queue or the
 * new one, never half of one; a failure leaves `out` as it was. A link or a directory at `out` is refused:
 * a rename would replace the link, and the person may have meant what it points to.
 */
export async function writeAtomically(out: string, text: string): Promise<void> {
  const there = await lstat(out).catch(() => null);
  if (there?.isSymbolicLink()) throw new QueueWriteRefused(`${out} is a symbolic link: refused`);
  if (there && !there.isFile()) throw new QueueWriteRefused(`${out} is not a regular file`);
  const pending = join(dirname(out), `.${basename(out)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const handle = await open(pending, CREATE_FLAGS, 0o644);
  try {
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(pending, out);
  } catch (e) {
    await rm(pending, { force: true });
    throw e;
  }
}

/** The queue document as text: its head indented, then one item a line, so a diff of two queues reads item by item. */
export function queueText(doc: { items: readonly unknown[] }): string {
  const { items, ...head } = doc;
  const top = JSON.stringify(head, null, 2).slice(0, -2);
  const lines = items.map((i) => `    ${JSON.stringify(i)}`).join(',\n');
  return `${top},\n  "items": [${items.length === 0 ? '' : `\n${lines}\n  `}]\n}\n`;
}
