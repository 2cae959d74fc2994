import { useEffect, useState } from 'react';
import { formatRange, type StepRange } from '../../state';

/** A training-step range typed as `12` or `10-20`; applied on Enter or leaving the field, cleared when emptied. */
export function RangeInput({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: StepRange | null;
  /** The run's first and last steps, shown as the field's hint (none while the run's first rows are read). */
  min?: number;
  max?: number;
  onChange: (r: StepRange | null) => void;
}) {
  const shown = value ? formatRange(value) : '';
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const apply = () => {
    const m = /^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$/.exec(text);
    if (text.trim() === '') onChange(null);
    else if (m) {
      const a = Number(m[1]);
      const b = m[2] === undefined ? a : Number(m[2]);
      onChange({ from: Math.min(a, b), to: Math.max(a, b) });
    } else setText(shown);
  };
  return (
    <label className="range-input">
      {label}
      <input
        type="text"
        inputMode="numeric"
        placeholder={min === undefined || max === undefined ? undefined : `${min}-${max}`}
        value={text}
        size={9}
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => e.key === 'Enter' && apply()}
      />
    </label>
  );
}
