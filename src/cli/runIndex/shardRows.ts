import { readFile } from 'node:fs/promises';
import { parquetReadObjects } from 'hyparquet';
import { type IndexRow, indexRowFrom } from '../../format/runIndex/columns';
import type { RunManifest } from '../../format/runIndex/manifest';
import { insideIndex } from './ownFiles';

/** The rows of one shard of the index in `outDir` (a shard is small: one row per rollout); never one outside it. */
export async function readShardRows(outDir: string, shardPath: string): Promise<IndexRow[]> {
  const bytes = await readFile(await insideIndex(outDir, shardPath));
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return (await parquetReadObjects({ file })).map(indexRowFrom);
}

/** Every row of an index, file by file and shard by shard as its manifest lists them. */
export async function readIndexRows(outDir: string, manifest: RunManifest): Promise<IndexRow[]> {
  const rows: IndexRow[] = [];
  for (const f of manifest.files) for (const s of f.shards) rows.push(...(await readShardRows(outDir, s.path)));
  return rows;
}
