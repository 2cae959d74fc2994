import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { type IdDecoder, isQwenTokenizer, isTextOnlyRecord, readTokenTable, recordTokenText } from '../analysis';
import { type Rollout, recordTranscript } from '../format';

// Where the views have always found it; decided in analysis so `lint` reads tokens the same way.
export { isQwenTokenizer };

/** Turns token ids into text for one record, and says where the text comes from. */
export interface Decoder {
  /** `text`: the record has no token ids at all (a text-only import), so there is nothing to decode. */
  source: 'record' | 'tokenizer' | 'text' | 'none';
  /** One line for the person: where token text comes from, or why there is none. */
  note: string;
  /** Text of one token, or null when it cannot be known. */
  piece(id: number): string | null;
  /** Text of a run of ids decoded together (multi-byte characters split over tokens come out whole). */
  text(ids: readonly number[]): string | null;
}

/** The build's name for the Qwen3 token table (scripts/qwenTokenTablePlugin.ts). */
declare const __QWEN3_TOKEN_TABLE__: string;

/**
 * The Qwen3 vocabulary, fetched once and only when a record needs it: a 1.3 MB table of each id's bytes
 * (analysis/tokenTable.ts), read in a few milliseconds, where the tokenizer package was a 5 MB script that
 * held the page for over a second.
 */
export function qwenTokenizerOptions() {
  return queryOptions({
    queryKey: ['tokenizer', 'qwen3'] as const,
    queryFn: async (): Promise<IdDecoder> => {
      const url = `${import.meta.env.BASE_URL}${__QWEN3_TOKEN_TABLE__}`;
      const res = await fetch(url);
      if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
      return readTokenTable(await res.arrayBuffer());
    },
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Builds the decoder from the record's own token strings and, when given, a tokenizer. */
export function makeDecoder(record: Rollout, tokenizer: IdDecoder | null, tokenizerError?: string): Decoder {
  const { piece, text, known } = recordTokenText(record, tokenizer);
  // Before the tokenizer: a record with no ids shows its messages, and "showing token ids" would be untrue.
  if (isTextOnlyRecord(record)) return { source: 'text', note: 'text only: the source recorded no token ids', piece, text };
  const name = record.tokenizer?.name ?? 'no tokenizer named';
  if (tokenizer) return { source: 'tokenizer', note: `decoded with the bundled Qwen3 tokenizer (record names ${name})`, piece, text };
  if (known > 0) {
    return { source: 'record', note: 'token text from the record’s input_tokens / generated_tokens', piece, text };
  }
  const why = tokenizerError
    ? `the Qwen3 tokenizer failed to load: ${tokenizerError}`
    : isQwenTokenizer(record)
      ? 'loading the Qwen3 tokenizer…'
      : `the record carries no token strings and its tokenizer (${name}) is not one Trajscope bundles`;
  // The Steps view then shows the record's messages (text over ids, issue 31); the Tokens view the ids.
  const shown = recordTranscript(record) ? 'the record’s messages; token ids not decoded' : 'showing token ids';
  return { source: 'none', note: `${shown}: ${why}`, piece, text };
}

/** The decoder for a record, loading the Qwen3 tokenizer if the record needs it and carries no token strings. */
export function useDecoder(record: Rollout | null): Decoder | null {
  // A text-only record names its model's tokenizer but has no ids for it to decode: no 5 MB load.
  const needsTokenizer = record !== null && isQwenTokenizer(record) && !isTextOnlyRecord(record);
  const tokenizer = useQuery({ ...qwenTokenizerOptions(), enabled: needsTokenizer });
  const data = needsTokenizer ? (tokenizer.data ?? null) : null;
  const error = tokenizer.error ? String(tokenizer.error) : undefined;
  return useMemo(() => (record ? makeDecoder(record, data, error) : null), [record, data, error]);
}
