import { type Chosen, dpoSink, type ExportSink, Skips, sftSink, v1Sink } from '../../analysis';
import { LineSpans, type LoadedRollout } from '../../format';
import { fileNameStep, indexRow, type RowOptions } from '../runIndex/rows';
import { cliTokenText } from '../tokenText';
import { JsonLinesOut } from './output';
import { type ExportRow, ParquetOut } from './parquet';

/*
 * The export's sinks in node: v1, sft and dpo are the page's own (src/analysis/export/sinks.ts), writing
 * to a file; parquet's index rows need the bytes of each line (its span), which only the CLI reads.
 */

/** A chosen rollout as the CLI reads it: with its line as loaded, which the parquet row is made from. */
interface CliChosen extends Chosen {
  loaded: LoadedRollout;
}

/** One output format over the CLI's reads; parquet also hears where each file begins and ends. */
export interface Sink extends ExportSink<CliChosen> {
  /** A file begins (the reader's per-file hooks); `end` when it is read, with the format it was read as. */
  file?(name: string): { onBytes(chunk: Uint8Array): void; end(format: string | null): void };
}

export const v1FileSink = (path: string): Sink => v1Sink(new JsonLinesOut(path));
export const sftFileSink = (path: string): Sink => sftSink(new JsonLinesOut(path), cliTokenText);
export const dpoFileSink = (path: string, where: string): Sink => dpoSink(new JsonLinesOut(path), where, cliTokenText);

/**
 * `parquet`: the run index's row of each chosen rollout (indexRow, as `trajscope index` writes it), with
 * its key and the query as columns. A file's rows wait for its end, where a rollout that is not one JSON
 * line on its own (a pretty-printed document) gets the whole file as its span, as in the index.
 */
export function parquetSink(path: string, options: RowOptions): Sink {
  const out = new ParquetOut(path);
  let spans = new LineSpans();
  let rows: { row: ExportRow; whole: boolean }[] = [];
  let step: number | null = null;
  return {
    unit: 'row',
    skips: new Skips(),
    written: () => out.rows,
    file: (name) => {
      spans = new LineSpans();
      rows = [];
      step = fileNameStep(name);
      return {
        onBytes: (chunk) => spans.push(chunk),
        end: (format) => {
          spans.end();
          for (const { row, whole } of rows)
            out.write({ ...row, source_format: format ?? 'v1', ...(whole ? { offset: 0, length: spans.bytes } : {}) });
          rows = [];
        },
      };
    },
    take: ({ loaded, provenance }) => {
      const row = indexRow(loaded, spans.span(loaded.line), loaded.file, step, options);
      // The run-wide policy order that numbers a step neither the record nor the file name gives is the
      // index's (it needs the whole run): here such a row has no step.
      const unstepped = row.training_step === null ? { training_step_from: null } : {};
      rows.push({
        row: { ...row, ...unstepped, rollout_key: provenance.rollout_key, where: provenance.where },
        whole: !spans.isJsonLine(loaded.line),
      });
    },
    // biome-ignore lint/correctness/useYield: the rows are written as they come; closing writes the last batch.
    closing: function* () {
      out.close();
    },
  };
}
