import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { type ExportedText, exportSelection, type PageFormat, selectedRollouts, tokenTextLoading } from '../../../analysis';
import { qwenTokenizerOptions, sourceRecordReader } from '../../../load';
import { useReadOptions, useReadRollout, useRolloutKeys, useRolloutRows, useScanSources, useSources } from '../../../state';

export interface ExportJob {
  /** Rows of the run list, any order: the export writes them in reading order. */
  indices: readonly number[];
  format: PageFormat;
  where: string;
  signal: AbortSignal;
  onProgress(done: number, total: number): void;
}

/**
 * Runs an export of rows of the open data (exportSelection, the CLI's sinks). Records are read exactly as
 * their lines parse: a run's by range (Dataset.rollout), the page's files read again from their sources
 * (the records held in memory are compact, sourceRecords.ts says why).
 */
export function useExportJob(): (job: ExportJob) => Promise<ExportedText> {
  const rows = useRolloutRows();
  const keys = useRolloutKeys();
  const readRollout = useReadRollout();
  const runFiles = useScanSources();
  const { sources } = useSources();
  const { read } = useReadOptions();
  const client = useQueryClient();
  return useCallback(
    async ({ indices, format, where, signal, onProgress }: ExportJob) => {
      const selected = selectedRollouts(rows, keys, indices);
      const fromFiles =
        runFiles === null
          ? sourceRecordReader(
              sources,
              selected.map((s) => s.summary),
              { ...(read.mapping ? { mapping: read.mapping } : {}), signal },
            )
          : null;
      try {
        return await exportSelection({
          format,
          where,
          selected,
          read: fromFiles ? ({ summary }) => fromFiles.read(summary) : ({ key }) => readRollout(key),
          // The Qwen3 token table the Tokens view loads, fetched once when a record names Qwen3.
          tokenText: tokenTextLoading(() => client.ensureQueryData(qwenTokenizerOptions())),
          signal,
          onProgress,
        });
      } finally {
        fromFiles?.close();
      }
    },
    [rows, keys, readRollout, runFiles, sources, read.mapping, client],
  );
}
