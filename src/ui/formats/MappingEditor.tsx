import { useEffect, useMemo, useState } from 'react';
import { type FieldMapping, type LineResult, MappingError, parseFieldMapping, starterMapping } from '../../format';
import { type LoadSource, PREVIEW_BYTES, readHead } from '../../load';
import { readWith } from '../../state';
import { previewMapping } from './previewMapping';

function check(text: string): { mapping: FieldMapping | null; problems: string[] } {
  try {
    return { mapping: parseFieldMapping(text), problems: [] };
  } catch (e) {
    return { mapping: null, problems: e instanceof MappingError ? e.problems : [String(e)] };
  }
}

/**
 * Paste or edit a field mapping (docs/formats.md), see the first records it makes of the file, apply it.
 * Applied, the mapping goes into the URL (`map=`), so a reload or a shared link reads the file the same way.
 */
export function MappingEditor({ source, initial, onClose }: { source: LoadSource; initial: string | null; onClose: () => void }) {
  const [head, setHead] = useState<{ bytes: Uint8Array; complete: boolean } | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [text, setText] = useState<string | null>(initial);
  useEffect(() => {
    const abort = new AbortController();
    readHead(source, abort.signal).then(
      (bytes) => setHead({ bytes, complete: source.kind === 'file' ? source.file.size <= PREVIEW_BYTES : bytes.length < PREVIEW_BYTES }),
      (e: unknown) => setReadError(e instanceof Error ? e.message : String(e)),
    );
    return () => abort.abort();
  }, [source]);
  const shown = text ?? (head ? starterMapping(head.bytes) : '');
  // Read-only until the starter mapping is known: an edit begun in the empty box would be cut into by the
  // starter arriving under it (an edit's selection made before, its text inserted after).
  const starting = text === null && !head && !readError;
  const { mapping, problems } = useMemo(() => check(shown), [shown]);
  const preview: LineResult[] | null = useMemo(
    () => (mapping && head ? previewMapping(source.name, head.bytes, mapping, head.complete) : null),
    [mapping, head, source.name],
  );

  return (
    <section className="mapping" aria-label="Field mapping">
      <div className="mapping__head">
        <h2>Read {source.name} with a field mapping</h2>
        <p className="faint">
          Say where your records keep their id, task, messages or turns, tool calls, reward and status (paths like <code>result.score</code>
          ); the status table maps your words to the five terminations. Fields are described in docs/formats.md.
        </p>
      </div>
      <div className="mapping__body">
        <label className="mapping__editor">
          <span>Mapping (JSON)</span>
          <textarea
            value={shown}
            readOnly={starting}
            placeholder={starting ? 'Reading the first lines of the file for a starter mapping…' : undefined}
            spellCheck={false}
            rows={16}
            onChange={(e) => setText(e.target.value)}
            aria-label="Mapping JSON"
          />
        </label>
        <section className="mapping__preview" aria-label="Preview">
          <span>Preview: the first records</span>
          {problems.length > 0 ? (
            <ul className="mapping__problems" aria-label="Mapping problems">
              {problems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : readError ? (
            <p className="count--error">Could not read the file: {readError}</p>
          ) : preview === null ? (
            <p className="faint">reading…</p>
          ) : preview.length === 0 ? (
            <p className="faint">No record in the first {Math.round(PREVIEW_BYTES / 1024)} KB.</p>
          ) : (
            <table className="mapping__table">
              <thead>
                <tr>
                  <th>line</th>
                  <th>rollout</th>
                  <th>task</th>
                  <th>termination</th>
                  <th>reward</th>
                  <th>segments</th>
                  <th>steps</th>
                </tr>
              </thead>
              <tbody>
                {preview.map((r, i) =>
                  r.kind === 'rollout' ? (
                    // biome-ignore lint/suspicious/noArrayIndexKey: one line may give several records; the order is fixed
                    <tr key={i}>
                      <td>{r.value.line}</td>
                      <td className="mono">{r.value.record.rollout_id}</td>
                      <td className="mono">{r.value.record.task_id}</td>
                      <td>{r.value.record.termination}</td>
                      <td>{r.value.record.reward ?? '—'}</td>
                      <td>{r.value.record.segments.length}</td>
                      <td>{r.value.record.steps?.length ?? 0}</td>
                    </tr>
                  ) : (
                    // biome-ignore lint/suspicious/noArrayIndexKey: as above
                    <tr key={i} className="mapping__error">
                      <td>{r.value.line}</td>
                      <td colSpan={6}>
                        {r.value.code}: {r.value.message}
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          )}
        </section>
      </div>
      <div className="mapping__actions">
        <button
          type="button"
          className="btn btn--primary"
          disabled={mapping === null}
          onClick={() => {
            if (mapping) readWith({ mapping: JSON.stringify(mapping) });
            onClose();
          }}
        >
          Apply mapping
        </button>
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
      </div>
    </section>
  );
}
