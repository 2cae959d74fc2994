import { useQuery } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { Rollout } from '../../format';
import { type Decoder, readProgress, subscribeReadProgress, useDecoder } from '../../load';
import { useDataset } from './datasetContext';

export interface RecordRead {
  /** The full record; null while it is being read (a rollout from a run index arrives later). */
  record: Rollout | null;
  /** Why the record could not be read, or null. */
  error: string | null;
  /** How far a huge record's expansion has got (0..1) while it is read in slices; null otherwise. */
  progress: number | null;
}

/**
 * The full record of the rollout with this row key: at once when it is in memory, through the query cache
 * when it is read later (by range from a run index), so every view asking for one key shares one read.
 */
export function useRolloutRecord(key: string | undefined): RecordRead {
  const dataset = useDataset();
  const read = key === undefined ? undefined : dataset.rollout(key);
  const later = read instanceof Promise ? read : null;
  const now = read instanceof Promise ? null : (read ?? null);
  const query = useQuery({
    queryKey: ['rollout', dataset.id, key ?? ''] as const,
    queryFn: () => later ?? Promise.reject(new Error('no rollout to read')),
    enabled: later !== null,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const progress = useSyncExternalStore(subscribeReadProgress, () => readProgress(later));
  const record = later === null ? now : (query.data ?? null);
  return { record, error: query.error ? String(query.error) : null, progress: record === null ? progress : null };
}

/** Token ids to text for a record (the bundled Qwen3 tokenizer when it names it); null while there is none. */
export function useRecordDecoder(record: Rollout | null): Decoder | null {
  return useDecoder(record);
}
