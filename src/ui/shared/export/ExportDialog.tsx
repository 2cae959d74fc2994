import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { exportEstimate, formatCount, type PageFormat, plural } from '../../../analysis';
import { usePolicies, useRolloutRows, useScanSources, useSources } from '../../../state';
import { cliCommand, exportFileName, skipsText } from './exportText';
import { useExportJob } from './useExportJob';
import './export.css';

type Format = PageFormat | 'parquet';

type Status =
  | { kind: 'idle' }
  | { kind: 'running'; done: number; total: number; cancel: () => void }
  | { kind: 'done'; written: number; unit: string; skipped: string; name: string }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

interface Props {
  indices: readonly number[];
  where: string;
  /** The search query behind the selection, for the command line; null when it is no query (the run list's filters). */
  query: string | null;
  onClose: () => void;
}

function saveBlob(name: string, parts: string[]): void {
  const url = URL.createObjectURL(new Blob(parts, { type: 'application/x-ndjson' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  // The click starts the download synchronously; the URL is not needed after it.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The selection's count and what each format would write, before anything runs; then the export, with its
 * progress and a cancel, saved as a download. Parquet (the run index's rows) is left to `trajscope export`.
 */
export function ExportDialog({ indices, where, query, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const [format, setFormat] = useState<Format>('v1');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const rows = useRolloutRows();
  const policies = usePolicies();
  const run = useScanSources() !== null;
  const { sources } = useSources();
  const runJob = useExportJob();
  const estimate = useMemo(
    () => exportEstimate(indices.flatMap((i) => (rows[i] ? [{ summary: rows[i], policy: policies[i] ?? null }] : []))),
    [indices, rows, policies],
  );
  const running = status.kind === 'running';
  const cancelRef = useRef<(() => void) | null>(null);
  cancelRef.current = running ? status.cancel : null;

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    // Leaving mid-export (Back, another page) stops it.
    return () => cancelRef.current?.();
  }, []);

  const start = (f: PageFormat) => {
    const controller = new AbortController();
    setStatus({ kind: 'running', done: 0, total: indices.length, cancel: () => controller.abort() });
    runJob({
      indices,
      format: f,
      where,
      signal: controller.signal,
      onProgress: (done, total) => setStatus((s) => (s.kind === 'running' ? { ...s, done, total } : s)),
    }).then(
      (out) => {
        const name = exportFileName(f);
        if (out.written > 0) saveBlob(name, out.chunks);
        setStatus({ kind: 'done', written: out.written, unit: out.unit, skipped: skipsText(out.skips), name });
      },
      (e) =>
        setStatus(
          controller.signal.aborted ? { kind: 'cancelled' } : { kind: 'failed', message: e instanceof Error ? e.message : String(e) },
        ),
    );
  };

  const options: { value: Format; title: string; what: string; count: string }[] = [
    { value: 'v1', title: 'v1', what: 'the records as they are', count: plural(estimate.records, 'record') },
    {
      value: 'sft',
      title: 'sft',
      what: 'chat turns of rewarded rollouts in the signal',
      count: `up to ${plural(estimate.conversations, 'conversation')}`,
    },
    { value: 'dpo', title: 'dpo', what: 'best and worst rollout of each group', count: `up to ${plural(estimate.pairs, 'pair')}` },
    { value: 'parquet', title: 'parquet', what: 'the run index’s rows', count: 'written by the command line' },
  ];
  const command = cliCommand(run ? ['RUN_DIR'] : sources.map((s) => s.name), query);
  const exact = format === 'v1';

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes, as Escape does.
    <dialog
      ref={dialog}
      className="export-dialog"
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(e) => {
        if (e.target === dialog.current && !running) dialog.current?.close();
      }}
    >
      <div className="export-dialog__body">
        <h2 id={titleId} className="export-dialog__title">
          Export {plural(indices.length, 'rollout')}
        </h2>
        <p className="export-dialog__where">
          Chosen by <code>{where || '(every rollout)'}</code>
        </p>
        <fieldset className="export-dialog__formats" disabled={running}>
          <legend>Format</legend>
          {options.map((o) => (
            <label key={o.value} className="export-dialog__format">
              <input
                type="radio"
                name="export-format"
                value={o.value}
                checked={format === o.value}
                onChange={() => {
                  setFormat(o.value);
                  // What was written is of the last format chosen: a new choice starts clean.
                  setStatus({ kind: 'idle' });
                }}
              />
              <span className="export-dialog__name">{o.title}</span>
              <span className="export-dialog__what">{o.what}</span>
              <span className="export-dialog__count">{o.count}</span>
            </label>
          ))}
        </fieldset>
        {format === 'parquet' ? (
          <ParquetCommand command={command} />
        ) : (
          <p className="export-dialog__note">
            {exact ? '' : 'Counted from the rows; the exact number is counted when written (a rollout may have no text to decode). '}
            Every line carries its provenance: file, line, rollout key and the query above.
          </p>
        )}
        <ExportStatus status={status} />
        <div className="export-dialog__actions">
          {running ? (
            <button type="button" className="btn" onClick={status.cancel}>
              Cancel export
            </button>
          ) : (
            <button type="button" className="btn" onClick={() => dialog.current?.close()}>
              Close
            </button>
          )}
          {format !== 'parquet' && (
            <button type="button" className="btn btn--primary" disabled={running || indices.length === 0} onClick={() => start(format)}>
              Export {exact ? plural(estimate.records, 'record') : format}
            </button>
          )}
        </div>
      </div>
    </dialog>
  );
}

function ParquetCommand({ command }: { command: string }) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div className="export-dialog__cli">
      <p className="export-dialog__note">
        The index rows need each line’s bytes, which the command line reads: run this where the files are.
      </p>
      <div className="export-dialog__command">
        <code>{command}</code>
        <button
          type="button"
          className="btn"
          onClick={() =>
            navigator.clipboard.writeText(command).then(
              () => setCopied('Copied'),
              (e) => setCopied(`Could not copy: ${e instanceof Error ? e.message : String(e)}`),
            )
          }
        >
          Copy
        </button>
      </div>
      <span className="faint" role="status">
        {copied}
      </span>
    </div>
  );
}

function ExportStatus({ status }: { status: Status }) {
  if (status.kind === 'idle') return null;
  if (status.kind === 'running')
    return (
      <div className="export-dialog__status" role="status">
        <progress max={status.total || 1} value={status.done} aria-label="Export progress" />
        <span>
          {formatCount(status.done)} of {plural(status.total, 'rollout')} read
        </span>
      </div>
    );
  if (status.kind === 'cancelled')
    return (
      <div className="export-dialog__status" role="status">
        Cancelled: nothing was saved.
      </div>
    );
  if (status.kind === 'failed')
    return (
      <div className="export-dialog__status export-dialog__status--error" role="alert">
        The export failed: {status.message}
      </div>
    );
  return (
    <div className="export-dialog__status" role="status">
      {status.written === 0 ? (
        <span>Nothing to write: no {status.unit} came of this selection.</span>
      ) : (
        <span>
          Wrote {plural(status.written, status.unit)} to <code>{status.name}</code> (downloaded).
        </span>
      )}
      {status.skipped && <span className="faint">Skipped: {status.skipped}.</span>}
    </div>
  );
}
