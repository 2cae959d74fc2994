import { useMemo } from 'react';
import { type AlignedRow, argsText, type TextChange, textChanges } from '../../analysis';
import type { Rollout, Step } from '../../format';

/** One aligned row in full: both calls' arguments and observations, as line diffs where both exist. */
export function PairDetail({ row, a, b }: { row: AlignedRow; a: Rollout; b: Rollout }) {
  const sa = row.a === null ? undefined : a.steps?.[row.a];
  const sb = row.b === null ? undefined : b.steps?.[row.b];
  return (
    <section className="pair" aria-label="Step difference">
      <h3 className="pair__title">
        {row.a === null ? 'A: none' : `A step ${row.a + 1}`} · {row.b === null ? 'B: none' : `B step ${row.b + 1}`}
      </h3>
      <TextDiff title="Arguments" a={sa && argsText(sa)} b={sb && argsText(sb)} />
      <TextDiff title="Observation" a={sa && observation(sa)} b={sb && observation(sb)} />
    </section>
  );
}

function observation(s: Step): string {
  const o = s.observation;
  if (!o) return '(no observation)';
  const status = [o.status, o.exit_code == null ? null : `exit ${o.exit_code}`, o.truncated ? 'truncated' : null]
    .filter(Boolean)
    .join(', ');
  return `${status ? `[${status}]\n` : ''}${o.text ?? ''}`;
}

function TextDiff({ title, a, b }: { title: string; a: string | undefined; b: string | undefined }) {
  const changes = useMemo(() => (a !== undefined && b !== undefined ? textChanges(a, b) : null), [a, b]);
  return (
    <section className="pair__section" aria-label={title}>
      <h4>
        {title}
        {a !== undefined && b !== undefined && (a === b ? ' · identical' : changes ? ' · A → B' : ' · too different to diff')}
      </h4>
      {a !== undefined && b !== undefined && changes ? (
        <pre className="pair__diff">
          {changes.map((c: TextChange, i) => (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts are fixed for its inputs
              key={i}
              className={c.added ? 'pair__add' : c.removed ? 'pair__del' : undefined}
            >
              {c.value}
            </span>
          ))}
        </pre>
      ) : (
        <div className="pair__sides">
          <pre className="pair__text">{a ?? '—'}</pre>
          <pre className="pair__text">{b ?? '—'}</pre>
        </div>
      )}
    </section>
  );
}
