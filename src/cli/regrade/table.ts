import { constants } from 'node:fs';
import { open, readFile, rename } from 'node:fs/promises';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { REGRADE_JOURNAL_FILE, REGRADE_TABLE_FILE, type RegradeRow, regradeRowKey } from '../../format';
import { rowFrom } from './rows';

// The names the page, `view` and `query` look for (one place: format/regrade/regradeTable.ts).
export const JOURNAL_FILE = REGRADE_JOURNAL_FILE;
export const TABLE_FILE = REGRADE_TABLE_FILE;

/**
 * The journal's rows, the last per key: a line cut short by an interruption (or spoiled by hand) is
 * skipped, so its rollout is graded again.
 */
export async function readJournal(path: string): Promise<RegradeRow[]> {
  const text = await readFile(path, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return '';
    throw e;
  });
  const rows = new Map<string, RegradeRow>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    const row = rowFrom(v);
    if (row) rows.set(regradeRowKey(row), row);
  }
  return [...rows.values()];
}

/** The journal, appended a row at a time and fsync'd, so a rollout in it is never graded again. */
export class Journal {
  private constructor(private readonly handle: Awaited<ReturnType<typeof open>>) {}

  static async open(path: string): Promise<Journal> {
    // No link followed: DIR is the user's, but a link planted there must not redirect the appends.
    const handle = await open(path, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
    // A line cut short by an interruption is ended, so the next row does not join it and get lost with it.
    const { size } = await handle.stat();
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await handle.write('\n');
    }
    return new Journal(handle);
  }

  /** Appends are serialised, so concurrent rollouts never interleave their lines. */
  private tail: Promise<void> = Promise.resolve();

  append(row: RegradeRow): Promise<void> {
    this.tail = this.tail.then(async () => {
      await this.handle.write(`${JSON.stringify(row)}\n`);
      await this.handle.sync();
    });
    return this.tail;
  }

  async close(): Promise<void> {
    await this.tail;
    await this.handle.close();
  }
}

type SchemaElement = NonNullable<Parameters<typeof parquetWriteBuffer>[0]['schema']>[number];
type Kind = 'STRING' | 'INT32' | 'DOUBLE';

const COLUMNS: readonly { name: keyof RegradeRow; type: Kind; nullable: boolean }[] = [
  { name: 'file', type: 'STRING', nullable: false },
  { name: 'line', type: 'INT32', nullable: false },
  { name: 'rollout_id', type: 'STRING', nullable: false },
  { name: 'attempt_id', type: 'STRING', nullable: true },
  { name: 'task_id', type: 'STRING', nullable: false },
  { name: 'old_reward', type: 'DOUBLE', nullable: true },
  { name: 'old_verdict', type: 'STRING', nullable: true },
  { name: 'new_reward', type: 'DOUBLE', nullable: true },
  { name: 'new_verdict', type: 'STRING', nullable: true },
  { name: 'error_kind', type: 'STRING', nullable: true },
  { name: 'error', type: 'STRING', nullable: true },
  { name: 'details', type: 'STRING', nullable: true },
  { name: 'duration_ms', type: 'DOUBLE', nullable: false },
  { name: 'grader', type: 'STRING', nullable: false },
];

function schemaOf(col: (typeof COLUMNS)[number]): SchemaElement {
  const repetition_type = col.nullable ? 'OPTIONAL' : 'REQUIRED';
  return col.type === 'STRING'
    ? { name: col.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type }
    : { name: col.name, type: col.type, repetition_type };
}

/** The rows as Parquet bytes, in file and line order, one row per rollout and grader command. */
function encodeRegradeTable(rows: readonly RegradeRow[]): ArrayBuffer {
  const sorted = [...rows].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.grader < b.grader ? -1 : 1)));
  return parquetWriteBuffer({
    columnData: COLUMNS.map((col) => ({ name: col.name, data: sorted.map((r) => r[col.name]) as never })),
    schema: [{ name: 'root', num_children: COLUMNS.length }, ...COLUMNS.map(schemaOf)],
    createdBy: 'trajscope regrade',
  });
}

/** Compacts the journal into DIR/regrade.parquet, written beside it and renamed over, so a reader never sees half a table. */
export async function writeTable(dir: string, rows: readonly RegradeRow[]): Promise<void> {
  const path = `${dir}/${TABLE_FILE}`;
  const pending = `${path}.pending`;
  const handle = await open(pending, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(new Uint8Array(encodeRegradeTable(rows)));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(pending, path);
}
