import { lstat, open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { REGRADE_DIR, REGRADE_TABLE_FILE } from '../../format';
import { OPEN_FLAGS, reachesWithoutLinks } from '../noLinks';

export const REGRADE_URL = '/api/regrade';
/** The media type the page checks, so a static host's fallback page is never read as a table. */
export const PARQUET_TYPE = 'application/vnd.apache.parquet';

/** Far more than a regrade's rows: about 200 bytes a row before the grader's details. */
const MAX_REGRADE_BYTES = 512 * 1024 * 1024;

const PARTS = [...REGRADE_DIR.split('/'), REGRADE_TABLE_FILE];
const PATH = PARTS.join('/');

type Read = { status: 200; bytes: Buffer } | { status: 403 | 404 | 413; error: string };

/**
 * `RUN/.trajscope/regrade/regrade.parquet`, as `trajscope regrade RUN --out RUN/.trajscope/regrade` wrote
 * it, read only and never through a link (each directory real, the file regular and reached through
 * them: noLinks.ts), as the review queue is. The page checks its rows (format/regrade/regradeTable.ts).
 */
export class RegradeFile {
  constructor(private readonly root: string) {}

  async read(): Promise<Read> {
    const none: Read = {
      status: 404,
      error: `no regrade in this run: \`trajscope regrade RUN --grader CMD --out RUN/${REGRADE_DIR}\` writes ${PATH}`,
    };
    let at = this.root;
    for (const part of PARTS.slice(0, -1)) {
      at = join(at, part);
      const s = await lstat(at).catch(() => null);
      if (s === null) return none;
      if (!s.isDirectory()) return { status: 403, error: `${part} is not a real directory: refused` };
    }
    const handle = await open(join(this.root, ...PARTS), OPEN_FLAGS).catch((e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') return null;
      if (e.code === 'ELOOP') return 'link' as const;
      throw e;
    });
    if (handle === null) return none;
    if (handle === 'link') return { status: 403, error: `${PATH} is a symbolic link: refused` };
    try {
      const s = await handle.stat();
      if (!s.isFile() || !(await reachesWithoutLinks(handle, this.root, PARTS, s)))
        return { status: 403, error: `${PATH} is not a regular file inside the run: refused` };
      if (s.size > MAX_REGRADE_BYTES) return { status: 413, error: `${PATH} is larger than ${MAX_REGRADE_BYTES / 2 ** 20} MiB` };
      return { status: 200, bytes: await handle.readFile() };
    } finally {
      await handle.close();
    }
  }
}

/**
 * `GET /api/regrade`: the served run's regrade table as it is on disk (200, Parquet), 404 with the command
 * that makes one when there is none or the server serves named files, 403 when a link stands in its way.
 */
export async function serveRegrade(req: IncomingMessage, res: ServerResponse, file: RegradeFile | undefined): Promise<void> {
  const read: Read = file ? await file.read() : { status: 404, error: 'a regrade is found in a run: `trajscope view DIR` serves it' };
  const ok = read.status === 200;
  const body = ok ? read.bytes : Buffer.from(JSON.stringify({ error: read.error }));
  res.writeHead(read.status, {
    'Content-Type': ok ? PARQUET_TYPE : 'application/json',
    'Cache-Control': 'no-store',
    'Content-Length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
