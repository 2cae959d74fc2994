import { memo, type ReactNode } from 'react';
import { formatCount } from '../../../format';
import { INDENT, type JsonLine, numbersText } from './jsonLines';

/** Numbers of one array shown before its "show all" button. */
const NUMBERS_PREVIEW = 240;
/** Characters of one string shown before its "show all" button. */
const STRING_PREVIEW = 4000;

interface Props {
  line: JsonLine;
  /** This line's long value is shown whole. */
  whole: boolean;
  /** The key is not a field of format v1. */
  unknown: boolean;
  onShowAll: () => void;
}

/** One line of the raw JSON, its long array or string cut short until asked for. */
export const RawJsonLine = memo(function RawJsonLine({ line, whole, unknown, onShowAll }: Props) {
  const v = line.value;
  let value: ReactNode;
  if (v.kind === 'numbers') {
    const cut = !whole && v.values.length > NUMBERS_PREVIEW;
    value = (
      <span className="rj-numbers">
        [{numbersText(v.values, 0, cut ? NUMBERS_PREVIEW : v.values.length)}
        {cut && (
          <>
            , <MoreButton onClick={onShowAll} label={`… show all ${formatCount(v.values.length)} numbers`} />
          </>
        )}
        ]
      </span>
    );
  } else if (v.kind === 'string' && !whole && v.text.length > STRING_PREVIEW) {
    value = (
      <span className="rj-string">
        {v.text.slice(0, STRING_PREVIEW)}
        <MoreButton onClick={onShowAll} label={`… show all ${formatCount(v.text.length)} characters`} />
      </span>
    );
  } else {
    value = <span className={`rj-${v.kind}`}>{v.text}</span>;
  }
  return (
    <div className="rj-line" style={{ paddingLeft: `${line.depth * INDENT.length + 2}ch` }}>
      {line.key !== null && (
        <>
          <span
            className={unknown ? 'rj-key rj-key--unknown' : 'rj-key'}
            title={unknown ? 'Not a field of format v1: kept as recorded' : undefined}
          >
            {line.key}
          </span>
          :{' '}
        </>
      )}
      {value}
      {line.comma && ','}
    </div>
  );
});

function MoreButton({ onClick, label }: { onClick: () => void; label: string }) {
  return (
    <button type="button" className="rj-more" onClick={onClick}>
      {label}
    </button>
  );
}
