import { lstat, open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { REVIEW_QUEUE_PATH } from '../../format';
import { OPEN_FLAGS, reachesWithoutLinks } from '../noLinks';

export const QUEUE_URL = '/api/queue';

/** The largest queue served: MAX_QUEUE_ITEMS items of a few hundred bytes each, with room. */
const MAX_QUEUE_BYTES = 64 * 1024 * 1024;

const PARTS = REVIEW_QUEUE_PATH.split('/');

type Read = { status: 200; bytes: Buffer } | { status: 403 | 404 | 413; error: string };

/**
 * `RUN/.trajscope/review-queue.json` as `trajscope queue RUN` wrote it (docs/review-queue.md), read only
 * and never through a link: `.trajscope` must be a real directory and the file a regular file reached
 * through it (checked on the open descriptor, as the review log is: noLinks.ts). Its content is the
 * page's to check (format/queue/queueFile.ts); the server only hands it over.
 */
export class QueueFile {
  constructor(private readonly root: string) {}

  async read(): Promise<Read> {
    const none: Read = {
      status: 404,
      error: `no review queue in this run: \`trajscope queue DIR --reviewers A,B --size N\` writes ${REVIEW_QUEUE_PATH}`,
    };
    const dir = await lstat(join(this.root, PARTS[0] ?? '.trajscope')).catch(() => null);
    if (dir === null) return none;
    if (!dir.isDirectory()) return { status: 403, error: `${PARTS[0]} is not a real directory: refused` };
    const handle = await open(join(this.root, ...PARTS), OPEN_FLAGS).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      if (e.code === 'ELOOP') return 'link' as const;
      throw e;
    });
    if (handle === null) return none;
    if (handle === 'link') return { status: 403, error: `${REVIEW_QUEUE_PATH} is a symbolic link: refused` };
    try {
      const s = await handle.stat();
      if (!s.isFile() || !(await reachesWithoutLinks(handle, this.root, PARTS, s))) {
        return { status: 403, error: `${REVIEW_QUEUE_PATH} is not a regular file inside the run: refused` };
      }
      if (s.size > MAX_QUEUE_BYTES) return { status: 413, error: `${REVIEW_QUEUE_PATH} is larger than ${MAX_QUEUE_BYTES / 2 ** 20} MiB` };
      return { status: 200, bytes: await handle.readFile() };
    } finally {
      await handle.close();
    }
  }
}

/**
 * `GET /api/queue`: the run's review queue file as it is on disk (200), 404 when there is none or the
 * server serves named files rather than one run directory, 403 when a link stands where it should be.
 */
export async function serveQueue(req: IncomingMessage, res: ServerResponse, file: QueueFile | undefined): Promise<void> {
  const read: Read = file ? await file.read() : { status: 404, error: 'a review queue is kept in a run: `trajscope view DIR` serves it' };
  const body = read.status === 200 ? read.bytes : Buffer.from(JSON.stringify({ error: read.error }));
  res.writeHead(read.status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Content-Length': body.length });
  res.end(req.method === 'HEAD' ? undefined : body);
}
