import { useEffect, useMemo, useState } from 'react';
import { contentClauses, type Hit, matchRow, parseQuery, type Query, QueryError, type SearchMatch } from '../../analysis';
import { type SearchPlace, type SearchProgress, startSearch } from '../../load';
import { useRolloutKeys, useRolloutRows, useScanMapping, useScanSources } from '../dataset';
import { useReadOptions } from '../hooks';
import { useSources } from '../useSources';

/** One rollout that matches: its run-list row, and its hits (the first few kept). */
export interface SearchResult {
  index: number;
  key: string;
  count: number;
  hits: Hit[];
}

export interface SearchRun {
  query: Query | null;
  /** The query does not parse: the message names the term and position. */
  error: QueryError | null;
  /** `rows`: only row clauses, decided from the run list at once; the others need a scan. */
  status: 'empty' | 'rows' | 'scanning' | 'done' | 'cancelled' | 'failed';
  place: SearchPlace | null;
  progress: SearchProgress | null;
  /** Why the scan failed. */
  failure: string | null;
  results: SearchResult[];
  /** Rollouts the row clauses leave to be scanned (all rows when there are none). */
  candidates: number;
  cancel: () => void;
}

interface ScanState {
  /** What this state is of: a new query or new data starts afresh. */
  of: string;
  status: 'scanning' | 'done' | 'cancelled' | 'failed';
  place: SearchPlace | null;
  progress: SearchProgress | null;
  failure: string | null;
  matches: SearchMatch[];
  cancel: () => void;
}

/** What names a row across the scan and the run list (a line of some formats holds several rollouts). */
/**
 * The last scan that ran to its end, with the rows it was mapped onto: Back from a hit to the results
 * shows them at once instead of scanning again (a new query or new data scans afresh).
 */
let finished: { rows: readonly unknown[]; scan: ScanState } | null = null;

const rowId = (r: { file: string; line: number; rollout_id: string; attempt_id: string | null }) =>
  `${r.line}\n${r.file}\n${r.rollout_id}\n${r.attempt_id ?? ''}`;

/**
 * The search of the URL's query over the open sources (docs/adr/0016): row clauses against the run list,
 * content clauses by a scan (on the `trajscope view` server when it serves every source, else in a search
 * worker), both ANDed. Matches stream in; `cancel` stops the scan and keeps what it found.
 */
export function useSearchRun(text: string): SearchRun {
  const rows = useRolloutRows();
  const keys = useRolloutKeys();
  const open = useSources().sources;
  // A run's rollouts are in its files, not in the page's open sources.
  const runSources = useScanSources();
  const sources = runSources ?? open;
  const { read } = useReadOptions();
  // A run's files are read as its index read them (its recorded mapping), not by the URL's read options.
  const runMapping = useScanMapping();
  const mapping = runSources ? runMapping : read.mapping;
  const parsed = useMemo(() => {
    try {
      return { query: parseQuery(text), error: null };
    } catch (e) {
      return { query: null, error: e instanceof QueryError ? e : new QueryError(String(e), 0) };
    }
  }, [text]);
  const query = parsed.query;
  const needsScan = query !== null && contentClauses(query).length > 0;
  const rowMatch = useMemo(() => (query ? rows.map((r) => matchRow(query.clauses, r)) : []), [rows, query]);
  const candidates = useMemo(() => rowMatch.filter(Boolean).length, [rowMatch]);
  const indexOf = useMemo(() => new Map(rows.map((r, i) => [rowId(r), i])), [rows]);

  const scanOf = `${text}\n${sources.map((s) => s.id).join('\n')}`;
  const [scan, setScan] = useState<ScanState | null>(() => (finished?.rows === rows ? finished.scan : null));
  // A scan is an external process the query starts, like a fetch: started by the effect, stopped on change.
  const noCandidates = candidates === 0;
  useEffect(() => {
    if (!needsScan || noCandidates) return;
    if (finished?.rows === rows && finished.scan.of === scanOf) {
      setScan(finished.scan);
      return;
    }
    let cancelled = false;
    const started = startSearch(sources, text, mapping, {
      onMatches: (ms) => setScan((s) => (s && s.of === scanOf ? { ...s, matches: s.matches.concat(ms) } : s)),
      onProgress: (progress) => setScan((s) => (s && s.of === scanOf ? { ...s, progress } : s)),
      onDone: (records) =>
        setScan((s) => {
          if (!s || s.of !== scanOf || s.status !== 'scanning') return s;
          const progress = { bytes: s.progress?.total ?? s.progress?.bytes ?? 0, total: s.progress?.total ?? null, records };
          const done: ScanState = { ...s, status: 'done', progress };
          finished = { rows, scan: done };
          return done;
        }),
      onError: (failure) => setScan((s) => (s && s.of === scanOf && !cancelled ? { ...s, status: 'failed', failure } : s)),
    });
    const cancel = () => {
      cancelled = true;
      started.cancel();
      setScan((s) => (s && s.of === scanOf && s.status === 'scanning' ? { ...s, status: 'cancelled' } : s));
    };
    setScan({ of: scanOf, status: 'scanning', place: started.place, progress: null, failure: null, matches: [], cancel });
    return () => {
      cancelled = true;
      started.cancel();
    };
  }, [scanOf, needsScan, noCandidates, sources, text, mapping, rows]);

  const current = scan && scan.of === scanOf ? scan : null;
  const results = useMemo((): SearchResult[] => {
    if (!query) return [];
    if (!needsScan) {
      const out: SearchResult[] = [];
      rowMatch.forEach((ok, index) => {
        if (ok) out.push({ index, key: keys[index] ?? '', count: 0, hits: [] });
      });
      return out;
    }
    const out: SearchResult[] = [];
    for (const m of current?.matches ?? []) {
      const index = indexOf.get(rowId(m));
      if (index === undefined || !rowMatch[index]) continue;
      out.push({ index, key: keys[index] ?? '', count: m.count, hits: m.hits });
    }
    return out;
  }, [query, needsScan, rowMatch, keys, current?.matches, indexOf]);

  const status: SearchRun['status'] =
    query === null
      ? 'failed'
      : query.clauses.length === 0
        ? 'empty'
        : !needsScan
          ? 'rows'
          : candidates === 0
            ? 'done'
            : (current?.status ?? 'scanning');
  return {
    query,
    error: parsed.error,
    status,
    place: current?.place ?? null,
    progress: current?.progress ?? null,
    failure: current?.failure ?? null,
    results,
    candidates,
    cancel: current?.cancel ?? (() => {}),
  };
}
