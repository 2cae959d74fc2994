import { parquetMetadata } from 'hyparquet';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { encodeIndexShard, type IndexRow } from '../../format';

/** An index row with the export's provenance beside it (`file` and `line` are the row's own). */
export interface ExportRow extends IndexRow {
  rollout_key: string;
  where: string;
}

type Schema = ConstructorParameters<typeof ParquetWriter>[0]['schema'];
type SchemaElement = Schema[number];

/** Rows per row group and per write: what is held before it goes to disk. */
const BATCH_ROWS = 10_000;

/**
 * The run index's own schema, read back from an empty shard `encodeIndexShard` writes, so its columns and
 * their types stay said once (src/format/runIndex/columns.ts); the provenance columns follow them.
 */
function exportSchema(): Schema {
  const [root, ...columns] = parquetMetadata(encodeIndexShard([])).schema.map(
    // The fields the index's schema sets (columns.ts `schemaOf`), copied into the writer's own types.
    (el): SchemaElement => ({
      name: el.name,
      ...(el.type === undefined ? {} : { type: el.type }),
      ...(el.repetition_type === undefined ? {} : { repetition_type: el.repetition_type }),
      ...(el.converted_type === undefined ? {} : { converted_type: el.converted_type }),
      ...(el.num_children === undefined ? {} : { num_children: el.num_children }),
    }),
  );
  const provenance: SchemaElement[] = [
    { name: 'rollout_key', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
    { name: 'where', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
  ];
  return [{ ...root, name: root?.name ?? 'root', num_children: (root?.num_children ?? 0) + provenance.length }, ...columns, ...provenance];
}

/** A top-level column's value as the writer takes it: int64 as bigint, a millisecond timestamp as a Date. */
function writerValue(el: SchemaElement): (v: unknown) => unknown {
  if (el.type === 'INT64' && el.converted_type === 'TIMESTAMP_MILLIS') return (v) => (v === null ? null : new Date(v as number));
  if (el.type === 'INT64') return (v) => (v === null ? null : BigInt(v as number));
  return (v) => v;
}

/** The top-level columns of a flat-or-list schema: each element after the root, skipping a list's inner levels. */
function topColumns(schema: Schema): SchemaElement[] {
  const out: SchemaElement[] = [];
  let i = 1;
  const skip = (at: number): number => {
    const el = schema[at];
    let next = at + 1;
    for (let c = 0; c < (el?.num_children ?? 0); c++) next = skip(next);
    return next;
  };
  while (i < schema.length) {
    const el = schema[i];
    if (el) out.push(el);
    i = skip(i);
  }
  return out;
}

/** The export's Parquet file, written a row group at a time: at most BATCH_ROWS rows are held. */
export class ParquetOut {
  private readonly writer;
  private readonly columns: { name: string; value: (v: unknown) => unknown }[];
  private batch: ExportRow[] = [];
  rows = 0;

  constructor(path: string) {
    const schema = exportSchema();
    this.columns = topColumns(schema).map((el) => ({ name: el.name, value: writerValue(el) }));
    this.writer = new ParquetWriter({ writer: fileWriter(path), schema, createdBy: 'trajscope export' });
  }

  write(row: ExportRow): void {
    this.batch.push(row);
    this.rows++;
    if (this.batch.length >= BATCH_ROWS) this.flush();
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    const rows = this.batch;
    this.batch = [];
    this.writer.write({
      columnData: this.columns.map(({ name, value }) => ({
        name,
        data: rows.map((r) => value((r as unknown as Record<string, unknown>)[name])) as never,
      })),
      rowGroupSize: BATCH_ROWS,
    });
  }

  close(): void {
    this.flush();
    this.writer.finish();
  }
}
