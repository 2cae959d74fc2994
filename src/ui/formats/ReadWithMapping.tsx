import { lazy, Suspense, useState } from 'react';
import type { LoadSource } from '../../load';
import { readWith, useLoadedFiles, useReadOptions } from '../../state';
import './formats.css';

// Its preview runs the line parser with every converter synchronously: loaded when the editor opens, so the
// page's startup script goes without them (issue 25).
const MappingEditor = lazy(() => import('./MappingEditor').then((m) => ({ default: m.MappingEditor })));

/**
 * Files no adapter recognised, said once each, with the way to read them: a field mapping. While a
 * mapping is applied (from this editor or `trajscope view --map`), says so and offers to edit or remove it.
 */
export function ReadWithMapping({ sources }: { sources: readonly LoadSource[] }) {
  const [editing, setEditing] = useState(false);
  const choice = useReadOptions();
  const unsupported = useLoadedFiles().filter((f) => f.unsupported);
  const applied = choice.mappingText !== null;
  if (unsupported.length === 0 && !applied) return null;
  const target = sources.find((s) => s.name === unsupported[0]?.name) ?? sources[0];
  return (
    <div className="read-mapping">
      {unsupported.length > 0 && (
        <div className="read-mapping__unknown" role="alert">
          <strong>
            {unsupported.length === 1
              ? 'This file is not in a format Trajscope knows'
              : `${unsupported.length} files are not in a format Trajscope knows`}
          </strong>
          <ul>
            {unsupported.map((f) => (
              <li key={f.name}>
                <span className="mono">{f.name}</span>: {f.unsupported}
              </li>
            ))}
          </ul>
        </div>
      )}
      {applied && (
        <p className="read-mapping__applied" role="status">
          {choice.mappingProblems ? (
            <>The mapping in this page’s address is not valid, so it is not applied: {choice.mappingProblems.join('; ')}</>
          ) : (
            <>Every file is read with the field mapping in this page’s address.</>
          )}{' '}
          <button type="button" className="link-button" onClick={() => readWith({ mapping: null })}>
            Remove mapping
          </button>
        </p>
      )}
      {target &&
        (editing ? (
          <Suspense fallback={null}>
            <MappingEditor source={target} initial={choice.mappingText} onClose={() => setEditing(false)} />
          </Suspense>
        ) : (
          <button type="button" className="btn btn--primary" onClick={() => setEditing(true)}>
            {applied ? 'Edit the field mapping…' : 'Read it with a field mapping…'}
          </button>
        ))}
    </div>
  );
}
