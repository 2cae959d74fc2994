import { useMemo } from 'react';
import { editDiff } from './editDiff';

/** An edit's old → new text as diff lines, with the changed words marked as deleted and inserted. */
export function EditDiffView({ oldText, newText }: { oldText: string; newText: string }) {
  const lines = useMemo(() => editDiff(oldText, newText), [oldText, newText]);
  return (
    <div className="st-edit-diff">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: diff lines are fixed for a given edit
        <div key={i} className={`st-edit-diff__line st-edit-diff__line--${line.sign === '-' ? 'old' : line.sign === '+' ? 'new' : 'same'}`}>
          <span className="st-edit-diff__sign" aria-hidden="true">
            {line.sign}
          </span>
          {line.parts.map((p, j) => {
            const key = `${j}`;
            if (!p.changed) return <span key={key}>{p.text}</span>;
            return line.sign === '-' ? <del key={key}>{p.text}</del> : <ins key={key}>{p.text}</ins>;
          })}
          {line.parts.length === 0 && '\u200b'}
        </div>
      ))}
    </div>
  );
}
