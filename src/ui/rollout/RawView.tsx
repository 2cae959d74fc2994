import { useCallback, useMemo, useState } from 'react';
import { formatCount, plural } from '../../analysis';
import type { Rollout } from '../../format';
import { isHugeRecord } from '../../load';
import { formatBytes } from '../shared/format';
import { usePass } from '../shared/usePass';
import { type JsonLine, jsonLineReader, jsonText } from './raw/jsonLines';
import { RawJsonLine } from './raw/RawJson';
import { RawLines } from './raw/RawLines';
import { unknownFieldsPass } from './raw/unknownFields';
import './raw/raw.css';

/**
 * Lines rendered at first, and added by each "more" click: a record with hundreds of steps stays quick.
 * A huge record's are read this many at a time as its virtualized list scrolls near their end.
 */
const LINE_CHUNK = 1500;

type CopyState = { kind: 'idle' } | { kind: 'copied'; bytes: number } | { kind: 'failed'; why: string };

/**
 * The whole record as JSON, unknown fields included: pretty-printed with arrays of numbers (token ids,
 * log-probs, masks) on one wrapped line each, long values and long documents cut short until asked for.
 * A huge record's lines are made as they are shown (a million steps are some eleven million lines), its
 * fields outside format v1 found in slices, and it is not offered whole to the clipboard.
 */
export function RawView({ record }: { record: Rollout }) {
  const huge = isHugeRecord(record);
  const reader = useMemo(() => jsonLineReader(record), [record]);
  const { value: unknown } = usePass(() => unknownFieldsPass(record), huge, [record]);
  // Only top-level keys are marked in the text: a key name alone does not say where a nested line is.
  const unknownTop = useMemo(() => new Set((unknown ?? []).filter((f) => !f.includes('[')).map((f) => JSON.stringify(f))), [unknown]);
  const [shown, setShown] = useState(LINE_CHUNK);
  const [whole, setWhole] = useState<ReadonlySet<number>>(() => new Set());
  const [copy, setCopy] = useState<CopyState>({ kind: 'idle' });
  // The reader's array grows as lines are asked for: read it in the render, with what it is read up to.
  const lines = reader.read(huge ? shown : Number.POSITIVE_INFINITY);
  const complete = reader.done;

  const onCopy = useCallback(async () => {
    const text = jsonText(reader.read(Number.POSITIVE_INFINITY));
    try {
      await navigator.clipboard.writeText(text);
      setCopy({ kind: 'copied', bytes: new Blob([text]).size });
    } catch (e) {
      setCopy({ kind: 'failed', why: e instanceof Error ? e.message : String(e) });
    }
  }, [reader]);

  const rest = lines.length - shown;
  const readMore = useCallback(() => setShown((n) => n + LINE_CHUNK), []);
  const renderLine = (line: JsonLine, i: number) => (
    <RawJsonLine
      // The line's index: lines of one record never move.
      key={i}
      line={line}
      whole={whole.has(i)}
      unknown={line.depth === 1 && line.key !== null && unknownTop.has(line.key)}
      onShowAll={() => setWhole((s) => new Set(s).add(i))}
    />
  );
  const steps = record.steps?.length ?? 0;
  return (
    <div className="raw">
      <div className="toolbar">
        <button
          type="button"
          className="btn"
          onClick={onCopy}
          disabled={huge}
          title={huge ? 'A record this large is copied from its file, not through the clipboard' : undefined}
        >
          Copy JSON
        </button>
        {huge && <span className="faint">too large for the clipboard: copy it from its file</span>}
        <span className="raw__status" role="status">
          {copy.kind === 'copied' && `Copied ${formatBytes(copy.bytes)} to the clipboard`}
          {copy.kind === 'failed' && `Could not copy: ${copy.why}`}
        </span>
        <span className="faint">
          {complete
            ? `${formatCount(lines.length)} lines`
            : `${formatCount(lines.length)} lines read of a record of ${plural(steps, 'step')}, more as you scroll`}{' '}
          · arrays of numbers on one line
          {unknown === null
            ? ' · looking for fields outside format v1…'
            : unknown.length > 0
              ? ' · fields outside format v1: '
              : ' · no fields outside format v1'}
        </span>
        {unknown !== null && unknown.length > 0 && <span className="raw__unknown mono">{unknown.join(', ')}</span>}
      </div>
      {huge ? (
        <RawLines lines={lines} complete={complete} onNearEnd={readMore} renderLine={renderLine} />
      ) : (
        <div className="raw__doc" role="document" aria-label="Raw JSON">
          {lines.slice(0, shown).map(renderLine)}
          {rest > 0 && (
            <div className="raw__more">
              <button type="button" className="btn" onClick={() => setShown((n) => n + LINE_CHUNK)}>
                Show {formatCount(Math.min(rest, LINE_CHUNK))} more lines
              </button>
              <button type="button" className="btn" onClick={() => setShown(lines.length)}>
                Show all {formatCount(lines.length)} lines
              </button>
              <span className="faint">{formatCount(rest)} lines not shown yet</span>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
