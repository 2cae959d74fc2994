import { useCallback, useMemo, useState } from 'react';
import { formatCount } from '../../analysis';
import type { Rollout } from '../../format';
import { formatBytes } from '../shared/format';
import { jsonLines, jsonText } from './raw/jsonLines';
import { RawJsonLine } from './raw/RawJson';
import { unknownFields } from './raw/unknownFields';
import './raw/raw.css';

/** Lines rendered at first, and added by each "more" click: a record with hundreds of steps stays quick. */
const LINE_CHUNK = 1500;

type CopyState = { kind: 'idle' } | { kind: 'copied'; bytes: number } | { kind: 'failed'; why: string };

/**
 * The whole record as JSON, unknown fields included: pretty-printed with arrays of numbers (token ids,
 * log-probs, masks) on one wrapped line each, long values and long documents cut short until asked for.
 */
export function RawView({ record }: { record: Rollout }) {
  const lines = useMemo(() => jsonLines(record), [record]);
  const unknown = useMemo(() => unknownFields(record), [record]);
  // Only top-level keys are marked in the text: a key name alone does not say where a nested line is.
  const unknownTop = useMemo(() => new Set(unknown.filter((f) => !f.includes('[')).map((f) => JSON.stringify(f))), [unknown]);
  const [shown, setShown] = useState(LINE_CHUNK);
  const [whole, setWhole] = useState<ReadonlySet<number>>(() => new Set());
  const [copy, setCopy] = useState<CopyState>({ kind: 'idle' });

  const onCopy = useCallback(async () => {
    const text = jsonText(lines);
    try {
      await navigator.clipboard.writeText(text);
      setCopy({ kind: 'copied', bytes: new Blob([text]).size });
    } catch (e) {
      setCopy({ kind: 'failed', why: e instanceof Error ? e.message : String(e) });
    }
  }, [lines]);

  const rest = lines.length - shown;
  return (
    <div className="raw">
      <div className="toolbar">
        <button type="button" className="btn" onClick={onCopy}>
          Copy JSON
        </button>
        <span className="raw__status" role="status">
          {copy.kind === 'copied' && `Copied ${formatBytes(copy.bytes)} to the clipboard`}
          {copy.kind === 'failed' && `Could not copy: ${copy.why}`}
        </span>
        <span className="faint">
          {formatCount(lines.length)} lines · arrays of numbers on one line
          {unknown.length > 0 ? ' · fields outside format v1: ' : ' · no fields outside format v1'}
        </span>
        {unknown.length > 0 && <span className="raw__unknown mono">{unknown.join(', ')}</span>}
      </div>
      <div className="raw__doc" role="document" aria-label="Raw JSON">
        {lines.slice(0, shown).map((line, i) => (
          <RawJsonLine
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one record never move
            key={i}
            line={line}
            whole={whole.has(i)}
            unknown={line.depth === 1 && line.key !== null && unknownTop.has(line.key)}
            onShowAll={() => setWhole((s) => new Set(s).add(i))}
          />
        ))}
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
    </div>
  );
}
