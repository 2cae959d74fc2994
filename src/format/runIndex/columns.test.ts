import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { buildIndexRow } from '../../testing/builders';
import { encodeIndexShard, INDEX_COLUMNS, INDEX_VERSION, INDEX_VERSION_KEY, type IndexRow, indexRowFrom } from './columns';

const row = (over: Partial<IndexRow> = {}): IndexRow =>
  buildIndexRow({
    file: 'step_0001.jsonl',
    length: 120,
    task_id: 't',
    attempt_id: null,
    group_id: 't@v1',
    policy_version: 'v1',
    training_step: 1,
    segments: 2,
    generated_tokens: 30,
    context_tokens: 200,
    trained_tokens: 28,
    warnings: 1,
    finding_codes: ['W_MISSING_METADATA'],
    started_at: Date.UTC(2026, 0, 2),
    ...over,
  });

const rows = [
  row(),
  row({
    line: 2,
    offset: 5_000_000_000,
    rollout_id: 'r-2',
    attempt_id: 'a-2',
    reward: null,
    in_signal: false,
    termination: 'infra_failure',
    training_step: null,
    training_step_from: null,
    finding_codes: [],
    mismatch_n: 3,
    mismatch_mean_abs: 0.1,
    mismatch_max_abs: 0.2,
    mismatch_ratio_mean: 1.01,
    mismatch_ratio_clip_frac: 0,
    mismatch_kl_k3: 0.004,
  }),
];

describe('the run index columns', () => {
  it('round-trip through hyparquet with their types (an offset past 2^32 stays exact)', async () => {
    const buf = encodeIndexShard(rows, { 'trajscope.source': 'step_0001.jsonl' });
    const back = (await parquetReadObjects({ file: buf })).map(indexRowFrom);
    expect(back).toEqual(rows);
    const kv = parquetMetadata(buf).key_value_metadata ?? [];
    expect(kv).toContainEqual({ key: INDEX_VERSION_KEY, value: String(INDEX_VERSION) });
    expect(kv).toContainEqual({ key: 'trajscope.source', value: 'step_0001.jsonl' });
  });

  // Issue 25: the run page draws its first chart from a shard's first row group, and 2,000 rows decode in
  // a third of the time of 10,000 in a cold worker; the others stay at 10,000 (what scans split on).
  it('start each shard with a row group of 2,000 rows, then groups of 10,000', async () => {
    const many = Array.from({ length: 25_000 }, (_, k) => row({ line: k + 1, rollout_id: `r-${k}` }));
    const buf = encodeIndexShard(many);
    expect(parquetMetadata(buf).row_groups.map((g) => Number(g.num_rows))).toEqual([2_000, 10_000, 10_000, 3_000]);
    const back = await parquetReadObjects({ file: buf, columns: ['rollout_id'], rowStart: 1_999, rowEnd: 2_001 });
    expect(back.map((r) => r.rollout_id)).toEqual(['r-1999', 'r-2000']);
  });

  it('read back in DuckDB as typed columns, the codes as a list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ts-index-'));
    writeFileSync(join(dir, 'a.parquet'), new Uint8Array(encodeIndexShard(rows)));
    const db = await DuckDBInstance.create(':memory:');
    const c = await db.connect();
    const types = (await c.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${dir}/*.parquet')`)).getRowObjectsJson();
    const typeOf = Object.fromEntries(types.map((t) => [t.column_name, t.column_type]));
    expect(Object.keys(typeOf)).toEqual(INDEX_COLUMNS.map((col) => col.name));
    expect(typeOf).toMatchObject({
      offset: 'BIGINT',
      reward: 'DOUBLE',
      in_signal: 'BOOLEAN',
      finding_codes: 'VARCHAR[]',
      started_at: 'TIMESTAMP',
    });
    const q = await c.runAndReadAll(
      `SELECT rollout_id, "offset"::VARCHAR AS o, list_contains(finding_codes, 'W_MISSING_METADATA') AS meta FROM read_parquet('${dir}/*.parquet') ORDER BY line`,
    );
    expect(q.getRowObjectsJson()).toEqual([
      { rollout_id: 'r-1', o: '0', meta: true },
      { rollout_id: 'r-2', o: '5000000000', meta: false },
    ]);
    c.closeSync();
  });

  it('name the column a foreign row lacks or mistypes', () => {
    const { reward: _, ...noReward } = row();
    expect(() => indexRowFrom({ ...noReward, task_id: 7 })).toThrow(/column task_id holds number, not STRING/);
    const { file: __, ...noFile } = row();
    expect(() => indexRowFrom(noFile)).toThrow(/column file is missing/);
  });
});
