import { useMemo, useState } from 'react';
import { diffLines } from './diffLines';

/** Beyond this many lines the rest waits for a click: an artifact can be a whole vendored file. */
const SHOWN_LINES = 2000;

const SIGN_LABEL = { add: 'added', del: 'removed' } as const;

/** The artifact as text, one row per line, coloured by kind. Every line is a React text node: never HTML. */
export function DiffView({ artifact }: { artifact: string }) {
  const view = useMemo(() => diffLines(artifact), [artifact]);
  const [all, setAll] = useState(false);
  const shown = all ? view.lines : view.lines.slice(0, SHOWN_LINES);
  return (
    <section className="diff" aria-label={view.isDiff ? 'Submitted diff' : 'Submitted artifact'}>
      <div className="diff__body">
        {shown.map((l, i) => (
          <div
            // Lines have no identity but their place; the list is rebuilt only when the artifact changes.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above.
            key={i}
            className={`diff__line diff__line--${l.kind}`}
            title={l.kind === 'add' || l.kind === 'del' ? SIGN_LABEL[l.kind] : undefined}
          >
            {view.isDiff && (
              <>
                <span className="diff__no">{l.oldNo ?? ''}</span>
                <span className="diff__no">{l.newNo ?? ''}</span>
              </>
            )}
            <span className="diff__code">{l.text === '' ? ' ' : l.text}</span>
          </div>
        ))}
      </div>
      {shown.length < view.lines.length && (
        <button type="button" className="link-button diff__more" onClick={() => setAll(true)}>
          Show all {view.lines.length} lines
        </button>
      )}
    </section>
  );
}
