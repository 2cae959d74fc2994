import { fieldMappingSchema } from '../adapters/mapping/schema';
import { lazily, z } from '../zod';
import { convertedPathProblem, indexPathProblem } from './indexPaths';
import { plainManifest } from './plainManifest';

export { CONVERTED_DIR, convertedPathProblem, indexPathProblem, relativePathProblem } from './indexPaths';

/*
 * `manifest.json` at the top of a run index directory: what a reader needs before any shard, because a
 * static host (a bucket, GitHub Pages) cannot list a directory. `trajscope index` writes it last, after
 * every shard it names is complete, so a reader never sees a shard half-written.
 */
/** The manifest's schema, built on first use (docs/adr/0031: no schema is built when a script loads). */
const manifestSchema = lazily(() => {
  /**
   * A file of the index that is a trace directory's converted copy (docs/formats.md, "Directories as
   * traces"): a directory has no one file whose bytes are a rollout, so `trajscope index` writes its rollouts
   * as v1 JSON Lines inside the index (`traces/<name>.jsonl`, the entry's `file`, under a `source_base` of
   * '') and indexes that, as `trajscope convert DIR` would write it.
   */
  const convertedSchema = z.object({
    /** The directory, relative to the index folder ('/'-separated): where the copy came from. */
    dir: z.string().min(1),
    /** The layouts found in it (`openhands-conversation`, `harbor-job`, `tau2-results`). */
    layouts: z.array(z.string()),
    /** A digest of its files' names, sizes and modification times when converted: a change makes a new copy. */
    digest: z.string().min(1),
    /** Files that failed to convert (an event that is not JSON, a trial with no trajectory), as lint reports them; the first 200. */
    errors: z.array(z.object({ file: z.string(), line: z.number().int().positive(), code: z.string(), message: z.string() })),
    /** How many failed in all (more than `errors` holds when many did). */
    failed: z.number().int().nonnegative(),
  });

  const shardSchema = z.object({
    /** Path of the Parquet file relative to the manifest, inside the index folder (`indexPathProblem`). */
    path: z.string().superRefine((path, ctx) => {
      const why = indexPathProblem(path);
      if (why) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(path)} ${why}` });
    }),
    rows: z.number().int().nonnegative(),
    /** The source lines (1-based, inclusive) and bytes (uncompressed, end exclusive) this shard covers. */
    from_line: z.number().int().positive(),
    to_line: z.number().int().nonnegative(),
    from_byte: z.number().int().nonnegative(),
    to_byte: z.number().int().nonnegative(),
    /**
     * The shard file's size in bytes (written since issue 25; older manifests lack it): a reader asks for
     * the file's last bytes, where Parquet keeps its footer, at once with the file, and decodes the first
     * row group as soon as it arrives instead of after the whole file.
     */
    bytes: z.number().int().positive().optional(),
  });

  const fileSchema = z
    .object({
      /** As in the index's `file` column: relative to the run directory. */
      file: z.string().min(1),
      /** Bytes on disk and mtime when indexed: an unchanged file keeps its shards. */
      size: z.number().int().nonnegative(),
      mtime_ms: z.number(),
      /** A gzip file's offsets are into its uncompressed bytes, so a reader fetches it whole, not by range. */
      gzip: z.boolean(),
      shards: z.array(shardSchema),
      /** Lines that are no rollout (E_PARSE, E_SCHEMA, ...), as lint reports them. */
      parse_errors: z.array(z.object({ line: z.number().int().positive(), code: z.string(), message: z.string() })),
      /** Lines read, blank ones included (lint's `summary.lines`). */
      lines: z.number().int().nonnegative().optional(),
      /** The format the file was read as (`v1` or an adapter's id), null when it held no known format. */
      format: z.string().nullable().optional(),
      /**
       * Where a grown plain file is read on: the lines ending in a newline, the byte after the last of them,
       * and a hash of the bytes just before it (a file replaced by a longer one fails it and re-indexes whole).
       */
      complete_lines: z.number().int().nonnegative().optional(),
      complete_bytes: z.number().int().nonnegative().optional(),
      check: z.string().optional(),
      /** Policy versions in order of first appearance in the file (the run-wide order gives `policy_order` steps). */
      policy_versions: z.array(z.string()).optional(),
      /** Rows whose training step neither the record nor the file name gives. */
      unstepped: z.number().int().nonnegative().optional(),
      /** Set when the file is a trace directory's converted copy, written by the index (`convertedSchema`). */
      converted_from: convertedSchema.optional(),
    })
    .superRefine((entry, ctx) => {
      // The index reads, keeps and deletes a converted copy on the manifest's word: only ever its own.
      const why = entry.converted_from ? convertedPathProblem(entry.file) : null;
      if (why) ctx.addIssue({ code: 'custom', path: ['file'], message: `${JSON.stringify(entry.file)} ${why}` });
    });

  const manifestSchema = z.object({
    version: z.literal(1),
    /** Where the run's files are, relative to the manifest's own URL or path (`..`, `files/`). */
    source_base: z.string(),
    /**
     * The options the rows were read and checked with (format, mapping, limits, lint's options), as one
     * string: an index run with other options re-reads every file rather than keep rows they would change.
     */
    options: z.string().optional(),
    /**
     * The field mapping (`--map`) the files were read with, when there was one: a reader of the run (the
     * page, reading a rollout by its span) parses the bytes of a `mapped` row with it, as the index did.
     */
    mapping: fieldMappingSchema().optional(),
    files: z.array(fileSchema),
  });
  return manifestSchema;
});

export type RunManifest = z.infer<ReturnType<typeof manifestSchema>>;

/** The schema itself, for the test that holds `plainManifest` to it. */
export const manifestSchemaForTests = manifestSchema;

/** Parses a manifest's text; an error names the first field that is wrong. */
export function parseRunManifest(text: string): { manifest: RunManifest } | { error: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    return { error: `manifest.json is not JSON: ${(e as Error).message}` };
  }
  const plain = plainManifest(body);
  if (plain) return { manifest: plain };
  const parsed = manifestSchema().safeParse(body);
  if (parsed.success) return { manifest: parsed.data };
  const issue = parsed.error.issues[0];
  // Name the file entry too: `files.3` alone sends a reader counting through a long manifest.
  const at = issue?.path[0] === 'files' && typeof issue.path[1] === 'number' ? fileNameAt(body, issue.path[1]) : null;
  const where = `${issue?.path.join('.') || '(top)'}${at === null ? '' : ` (file ${JSON.stringify(at)})`}`;
  return { error: `manifest.json: ${where}: ${issue?.message ?? 'invalid'}` };
}

function fileNameAt(body: unknown, k: number): string | null {
  const files = (body as { files?: unknown }).files;
  const file = Array.isArray(files) ? (files[k] as { file?: unknown } | undefined)?.file : undefined;
  return typeof file === 'string' ? file : null;
}
