import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import { formatCount, HIT_COUNT_CAP, type Hit, plural } from '../../analysis';
import { type SearchResult, toRollout, toToken, useRolloutRows, useSearchRun, useSelection } from '../../state';
import { ExportButton } from '../shared/export/ExportButton';
import { withSteps } from '../shared/export/exportText';
import { formatBytes, formatReward } from '../shared/format';
import { TerminationBadge } from '../shared/TerminationBadge';
import './search.css';

const HEAD_HEIGHT = 30;
const HIT_HEIGHT = 22;
/** Hits shown per rollout; the count says how many more there are. */
const SHOWN_HITS = 3;

const FIELD_WORDS: Record<Hit['field'], string> = {
  prompt: 'prompt',
  action: 'action',
  observation: 'observation',
  generated: 'generated',
  context: 'context',
  artifact: 'grader artifact',
};

function where(hit: Hit): string {
  const at = hit.step !== null ? `step ${hit.step}` : hit.segment !== null ? `segment ${hit.segment}` : '';
  const tok = hit.token !== null ? ` · token ${hit.token}` : '';
  return `${at ? `${at} · ` : ''}${FIELD_WORDS[hit.field]}${tok}`;
}

/** Opens the rollout where the hit is: the token for generated or context text, else the step, else the audit. */
function openHit(key: string, hit: Hit): void {
  if (hit.token !== null && hit.segment !== null) toToken(key, hit.segment, hit.token);
  else if (hit.step !== null) toRollout(key, 'steps', hit.step);
  else if (hit.field === 'artifact') toRollout(key, 'audit');
  else toRollout(key);
}

/** The search page: progress and cancel, then every matching rollout with its first hits. */
export function SearchView() {
  const { query } = useSelection();
  const run = useSearchRun(query);
  return (
    <section className="search-view" aria-label="Search results">
      <SearchStatus run={run} />
      {run.error ? null : <ResultList results={run.results} />}
    </section>
  );
}

function SearchStatus({ run }: { run: ReturnType<typeof useSearchRun> }) {
  const { query } = useSelection();
  if (run.error)
    return (
      <div className="search-status search-status--error" role="alert">
        <code className="search-status__query">
          {query.slice(0, run.error.position)}
          <mark>{query.slice(run.error.position) || ' '}</mark>
        </code>
        <span>{run.error.message}</span>
      </div>
    );
  if (run.status === 'empty') return <div className="search-status">Type a query above and press Enter; ? lists every term.</div>;
  const hits = run.results.reduce((n, r) => n + r.count, 0);
  const found = `${plural(run.results.length, 'rollout')} ${run.results.length === 1 ? 'matches' : 'match'}`;
  const p = run.progress;
  const share = p?.total ? Math.min(1, p.bytes / p.total) : null;
  const place = run.place === 'server' ? 'on the trajscope view server' : run.place === null ? '' : 'in this page (a search worker)';
  return (
    <div className="search-status" role="status" aria-live="polite">
      <span className="search-status__found">
        {found}
        {run.status === 'scanning' ? ' so far' : ''}
      </span>
      {hits > 0 && <span>{plural(hits, 'hit')}</span>}
      {run.status === 'scanning' && (
        <>
          <progress className="search-status__bar" max={1} value={share ?? undefined} aria-label="Search progress" />
          <span>
            scanning{place ? ` ${place}` : ''}
            {p ? ` · ${formatCount(p.records)} read${p.total ? ` · ${formatBytes(p.bytes)} of ${formatBytes(p.total)}` : ''}` : ''}
          </span>
          <button type="button" className="search-status__cancel" onClick={run.cancel}>
            Cancel
          </button>
        </>
      )}
      {run.status === 'cancelled' && <span className="search-status__note">cancelled: the results so far are shown</span>}
      {run.status === 'failed' && <span className="search-status__note">the search failed: {run.failure}</span>}
      {run.status === 'done' && p && (
        <span className="search-status__note">
          {plural(p.records, 'rollout')} scanned {place}
        </span>
      )}
      {run.status === 'rows' && <span className="search-status__note">decided from the run list (no text to scan)</span>}
      <span className="search-status__end">
        <SearchExport run={run} />
      </span>
    </div>
  );
}

/** The matches, once all are known, to the export dialog: the query (and a run's steps) is their provenance. */
function SearchExport({ run }: { run: ReturnType<typeof useSearchRun> }) {
  const { query, steps } = useSelection();
  const complete = run.status === 'rows' || run.status === 'done';
  const indices = useMemo(() => (complete ? run.results.map((r) => r.index) : null), [complete, run.results]);
  const where = withSteps(query, steps);
  return <ExportButton indices={indices} where={where} query={where} waiting="Export waits for the search to finish" />;
}

/** Hits of a result not listed under it (the count says how many it has). */
const unlisted = (r: SearchResult) => Math.max(0, Math.min(r.count, HIT_COUNT_CAP) - Math.min(SHOWN_HITS, r.hits.length));

function rowHeight(r: SearchResult): number {
  return HEAD_HEIGHT + HIT_HEIGHT * (Math.min(SHOWN_HITS, r.hits.length) + (unlisted(r) > 0 ? 1 : 0)) + 8;
}

function ResultList({ results }: { results: readonly SearchResult[] }) {
  const rows = useRolloutRows();
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: results.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => {
      const r = results[i];
      return r ? rowHeight(r) : HEAD_HEIGHT;
    },
    overscan: 8,
  });
  return (
    <div className="search-results" ref={scroller}>
      <ul className="search-results__list" aria-label="Matching rollouts" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const r = results[item.index];
          const row = r ? rows[r.index] : undefined;
          if (!r || !row) return null;
          return (
            <li
              key={r.key}
              className="search-result"
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}
            >
              <div className="search-result__head">
                <button type="button" className="search-result__key" onClick={() => toRollout(r.key)}>
                  {r.key}
                </button>
                <span className="search-result__task">{row.task_id}</span>
                <TerminationBadge termination={row.termination} />
                <span className="search-result__reward">{row.reward === null ? 'no reward' : `reward ${formatReward(row.reward)}`}</span>
                <span className="search-result__count">
                  {r.count === 0 ? '' : r.count >= HIT_COUNT_CAP ? `${formatCount(HIT_COUNT_CAP)}+ hits` : plural(r.count, 'hit')}
                </span>
              </div>
              {r.hits.slice(0, SHOWN_HITS).map((hit, i) => (
                <button
                  // biome-ignore lint/suspicious/noArrayIndexKey: a result's hits never reorder
                  key={i}
                  type="button"
                  className="search-hit"
                  onClick={() => openHit(r.key, hit)}
                >
                  <span className="search-hit__where">{where(hit)}</span>
                  <span className="search-hit__snippet">
                    {hit.cutStart ? '…' : ''}
                    {hit.snippet.slice(0, hit.match[0])}
                    <mark>{hit.snippet.slice(hit.match[0], hit.match[1])}</mark>
                    {hit.snippet.slice(hit.match[1])}
                    {hit.cutEnd ? '…' : ''}
                  </span>
                </button>
              ))}
              {unlisted(r) > 0 && (
                // "4 hits" over three listed said nothing of the fourth (issue 31).
                <button type="button" className="search-hit search-hit--more" onClick={() => toRollout(r.key)}>
                  {r.count >= HIT_COUNT_CAP ? 'and more' : `and ${plural(unlisted(r), 'more hit')}`} in this rollout: open it
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
