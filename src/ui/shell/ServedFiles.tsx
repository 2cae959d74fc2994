import { plural } from '../../analysis';
import type { LoadSource, ServedFile } from '../../load';
import { servedUrl } from '../../load';
import { openSources, usePendingLines } from '../../state';
import { formatBytes } from '../shared/format';

interface Props {
  served: readonly ServedFile[];
  sources: readonly LoadSource[];
}

/**
 * The files `trajscope view` serves: which are open, a way to open one or all, and that they are being
 * followed live (with any half-written last line the app is waiting on).
 */
export function ServedFiles({ served, sources }: Props) {
  const pendingLines = usePendingLines();
  const open = new Set(sources.map((s) => (s.kind === 'url' ? s.url : '')));
  return (
    <details className="served">
      <summary className="served__summary">
        <span className="served__live" aria-hidden="true" />
        Live · {plural(served.length, 'served file')}
        {pendingLines.length > 0 && (
          <span className="faint" title="A last line without its newline that is not yet a whole JSON record: held back, not counted">
            {' '}
            · waiting for {plural(pendingLines.length, 'line')}
          </span>
        )}
      </summary>
      <div className="served__panel" role="dialog" aria-label="Served files">
        <p className="served__note">
          Served by <code>trajscope view</code>. New lines appear as they are written; a half-written last line waits for its newline (a
          last line that is already a whole record is read at once).
        </p>
        <ul className="served__list">
          {served.map((f) => {
            const url = servedUrl(f);
            const waiting = pendingLines.find((p) => p.file === f.name);
            return (
              <li key={f.id} className="served__item">
                <span className={open.has(url) ? 'served__name served__name--open' : 'served__name'}>{f.name}</span>
                <span className="faint">{formatBytes(f.size)}</span>
                {waiting && (
                  <span
                    className="faint"
                    title="Shown once its newline arrives; if the writer stopped, the line was cut off (trajscope lint reports it as E_PARSE)"
                  >
                    line {waiting.line} being written ({formatBytes(waiting.bytes)} so far)
                  </span>
                )}
                <button type="button" className="link-button" onClick={() => openSources([url])}>
                  open only this
                </button>
              </li>
            );
          })}
        </ul>
        <button type="button" className="link-button" onClick={() => openSources([])}>
          Open all served files
        </button>
      </div>
    </details>
  );
}
