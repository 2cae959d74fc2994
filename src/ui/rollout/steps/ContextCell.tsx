import { useMemo } from 'react';
import { type ContextChange, isTextOnly, previousSequence, visibleMessages } from '../../../analysis';
import type { Rollout } from '../../../format';
import { formatCount } from '../../../format';
import type { Decoder } from '../../../load';
import { type ContextRun, contextRuns, decodeRun, PREVIEW_TOKENS, shownId, splitSpecial } from './contextRuns';
import { TextContext } from './TextContext';
import type { Expanded } from './useExpanded';

interface Props {
  record: Rollout;
  segment: number | null;
  change: ContextChange | null;
  decoder: Decoder | null;
  /** The tokenizer is still loading: show where each run is, not its ids. */
  pending: boolean;
  expanded: Expanded;
}

function count(n: number): string {
  return formatCount(n);
}

/**
 * What the model saw before it generated this action: the segment's input_ids, with what is new since
 * the previous segment inserted, what was dropped struck through, and the history folded.
 */
export function ContextCell({ record, segment, change, decoder, pending, expanded }: Props) {
  const runs = useMemo(() => (change && segment !== null ? contextRuns(change, segment === 0) : []), [change, segment]);
  const input = segment === null ? null : (record.segments[segment]?.input_ids ?? null);
  const previous = useMemo(
    () => (segment !== null && runs.some((r) => r.kind === 'dropped') ? previousSequence(record, segment) : []),
    [record, segment, runs],
  );
  const seg = segment === null ? undefined : record.segments[segment];
  // Text over ids: a text-only source, or ids no tokenizer here decodes in a record that has the messages too.
  if (segment !== null && seg && (isTextOnly(seg) || (decoder?.source === 'none' && visibleMessages(record, segment) !== null))) {
    return <TextContext record={record} segment={segment} tokens={isTextOnly(seg) ? null : seg.input_ids.length} expanded={expanded} />;
  }
  if (segment === null || !change || !input) {
    return (
      <div className="scell scell--ctx">
        <p className="scell__note">No generation recorded for this step, so no context.</p>
      </div>
    );
  }
  return (
    <div className="scell scell--ctx">
      <div className="scell__head">
        <span className="st-obs-fact">{count(input.length)} tokens</span>
        {segment === 0 ? (
          <span className="faint">the first context</span>
        ) : (
          <>
            {/* After a compaction the kept tokens lie in several runs: say how many, so the counts add up. */}
            {change.dropped > 0 && <span className="faint">{count(input.length - change.added)} kept</span>}
            <span className="st-ctx-count st-ctx-count--added">+{count(change.added)} new</span>
            {change.dropped > 0 && <span className="st-ctx-count st-ctx-count--dropped">−{count(change.dropped)} dropped</span>}
          </>
        )}
        {change.approximate && (
          <span className="faint" title="The change was too large to align token by token">
            (aligned as kept prefix + replacement)
          </span>
        )}
      </div>
      <div className="scell__body st-ctx-text">
        {runs.map((run, i) => (
          <RunView
            key={`${run.kind}:${run.start}`}
            run={run}
            ids={run.kind === 'dropped' ? previous : input}
            runKey={`ctx:${segment}:${i}`}
            decoder={decoder}
            pending={pending}
            expanded={expanded}
          />
        ))}
      </div>
    </div>
  );
}

interface RunProps {
  run: ContextRun;
  /** The sequence the run's positions index into. */
  ids: readonly number[];
  runKey: string;
  decoder: Decoder | null;
  pending: boolean;
  expanded: Expanded;
}

function RunView({ run, ids, runKey, decoder, pending, expanded }: RunProps) {
  const open = expanded.isOpen(runKey, !run.collapsed);
  const full = expanded.isOpen(`${runKey}:all`);
  const length = run.end - run.start;
  const cut = !full && length > PREVIEW_TOKENS;
  const decoded = useMemo(
    () => (open && !pending ? decodeRun(ids.slice(run.start, cut ? run.start + PREVIEW_TOKENS : run.end), decoder) : null),
    [open, pending, ids, run.start, run.end, cut, decoder],
  );
  const fold = run.collapsed;
  const body = pending ? (
    <span className="st-ctx-pending">{run.label}: decoding…</span>
  ) : (
    decoded && (
      <>
        {splitSpecial(decoded.text).map((part, i) =>
          i % 2 === 1 ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts of a fixed text
            <span key={i} className="st-ctx-special">
              {part}
            </span>
          ) : (
            part
          ),
        )}
        {cut && (
          <button type="button" className="st-ctx-more" onClick={() => expanded.toggle(`${runKey}:all`)}>
            … {count(length - PREVIEW_TOKENS)} more tokens: show all
          </button>
        )}
      </>
    )
  );
  const titled = decoded?.exact === 'ids' ? `${run.label} (some tokens have no text and show as ${shownId('id')})` : run.label;
  return (
    <>
      {fold && (
        <button type="button" className="st-ctx-fold" aria-expanded={open} onClick={() => expanded.toggle(runKey, !run.collapsed)}>
          {open ? '▾' : '▸'} {run.label}
        </button>
      )}
      {open &&
        (run.kind === 'added' ? (
          <ins className="st-ctx-run st-ctx-run--added" title={titled}>
            {body}
          </ins>
        ) : run.kind === 'dropped' ? (
          <del className="st-ctx-run st-ctx-run--dropped" title={titled}>
            {body}
          </del>
        ) : (
          <span className={`st-ctx-run st-ctx-run--${run.kind}`} title={titled}>
            {body}
          </span>
        ))}
    </>
  );
}
