import { encodeIndexShard } from '../../format/runIndex/columns';
import type { RunManifest } from '../../format/runIndex/manifest';
import { writeInIndex } from './ownFiles';
import { readShardRows } from './shardRows';

/**
 * Rows with no training step from their record or file name get §9's fallback: the order of first
 * appearance of their policy version over the whole run (files in name order, lines in order), from 0.
 * Only the whole run knows it, so it is set here, after every file is scanned, by rewriting the few
 * shards whose values change (a shard is small: one row per rollout).
 */
export async function orderByPolicy(manifest: RunManifest, outDir: string): Promise<void> {
  const rank = new Map<string, number>();
  const byName = [...manifest.files].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const f of byName) for (const p of f.policy_versions ?? []) if (!rank.has(p)) rank.set(p, rank.size);
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}p`;
  for (const f of manifest.files) {
    if (!f.unstepped) continue;
    let unstepped = 0;
    f.shards = await Promise.all(
      f.shards.map(async (shard) => {
        const rows = await readShardRows(outDir, shard.path);
        let changed = false;
        for (const row of rows) {
          if (row.training_step_from !== 'policy_order') continue;
          unstepped++;
          const step = row.policy_version === null ? null : (rank.get(row.policy_version) ?? null);
          if (step !== row.training_step) {
            row.training_step = step;
            changed = true;
          }
        }
        if (!changed) return shard;
        // A merged index names its parts' shards (`parts/…`): its rewritten ones go into its own shards/.
        const own = shard.path.startsWith('shards/')
          ? shard.path
          : `shards/merged/${shard.path.replace(/^(\.\.\/)+/, '').replace(/\//g, '~')}`;
        const path = own.replace(/(\.[^./]+)?\.parquet$/, `.${stamp}.parquet`);
        const data = new Uint8Array(encodeIndexShard(rows, { 'trajscope.file': f.file }));
        await writeInIndex(outDir, path, data);
        return { ...shard, path, bytes: data.byteLength };
      }),
    );
    f.unstepped = unstepped;
  }
}
