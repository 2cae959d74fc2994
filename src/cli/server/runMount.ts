import { open, readFile, readlink, realpath } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, sep } from 'node:path';
import { parseRunManifest } from '../../format';
import { OPEN_FLAGS } from '../noLinks';
import type { Catalog } from './catalog';
import { sendFile } from './sendFile';

/** Where the page finds the run: `/run/manifest.json`, its shards, and the run's files under `/run/files/`. */
export const RUN_MOUNT = '/run/';

export interface RunMount {
  /** The run index directory `trajscope view` keeps fresh. */
  indexDir: string;
  /** The catalog root (`d<n>`) that is the run directory: the manifest's `file` names are relative to it. */
  root: number;
  /** True until the first index is written: the page is told to wait (503), not that the run is missing. */
  building: () => boolean;
}

const SHARD_PATH = /^shards\/(?:[^/]+\/)*[^/]+\.parquet$/;

/**
 * Serves `/run/...` for `trajscope view RUN_DIR` (docs/adr/0015). The manifest is the index's own, with
 * `source_base` pointing at `files/` here (wherever the index lives on disk). A shard is served only when
 * the manifest names it, reached without links; a run file only as the catalog serves it (same checks,
 * same ranges). Everything else is the same 404.
 */
export async function serveRun(req: IncomingMessage, res: ServerResponse, mount: RunMount, catalog: Catalog): Promise<void> {
  const raw = (req.url ?? '').slice(RUN_MOUNT.length).split('?')[0] ?? '';
  const notFound = () => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
  if (raw.startsWith('files/')) {
    const file = await catalog.open(`d${mount.root}/${raw.slice('files/'.length)}`);
    if (!file) return void notFound();
    return sendFile(req, res, file);
  }
  const text = await readFile(join(mount.indexDir, 'manifest.json'), 'utf8').catch(() => null);
  const parsed = text === null ? null : parseRunManifest(text);
  if (parsed === null || 'error' in parsed) {
    if (mount.building()) {
      res
        .writeHead(503, { 'Content-Type': 'text/plain', 'Retry-After': '1', 'Cache-Control': 'no-store' })
        .end('the run index is being built');
    } else notFound();
    return;
  }
  const { manifest } = parsed;
  if (raw === 'manifest.json') {
    const body = JSON.stringify({ ...manifest, source_base: 'files/' });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  let path: string;
  try {
    path = decodeURIComponent(raw);
  } catch {
    return void notFound();
  }
  const named = manifest.files.some((f) => f.shards.some((s) => s.path === path));
  if (!named || !SHARD_PATH.test(path) || path.split('/').some((p) => p === '' || p === '.' || p === '..' || p.includes('\0'))) {
    return void notFound();
  }
  // The index directory as the kernel names it (absolute, its own links resolved: `view public/demo/run`
  // names it relatively, and a home directory may be reached through a link); a link inside it still fails.
  const dir = await realpath(mount.indexDir).catch(() => null);
  if (dir === null) return void notFound();
  const full = join(dir, ...path.split('/'));
  const handle = await open(full, OPEN_FLAGS).catch(() => null);
  if (!handle) return void notFound();
  const s = await handle.stat();
  // The kernel's word for where the descriptor is: a shard path through a symlinked folder is somewhere else.
  const where = process.platform === 'linux' ? await readlink(`/proc/self/fd/${handle.fd}`).catch(() => full) : full;
  if (!s.isFile() || where !== full || !full.startsWith(dir + sep)) {
    await handle.close();
    return void notFound();
  }
  await sendFile(req, res, { handle, size: s.size, mtimeMs: s.mtimeMs, ino: s.ino });
}
