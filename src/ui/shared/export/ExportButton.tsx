import { useState } from 'react';
import { useStillReading } from '../useStillReading';
import { ExportDialog } from './ExportDialog';

interface Props {
  /** The rows chosen (any order); null while they are not all known (a search still scanning). */
  indices: readonly number[] | null;
  /** What chose them, written into every record's provenance. */
  where: string;
  /** The search query behind them, for the command line; null when the selection is no query. */
  query: string | null;
  /** Why they cannot be exported yet, as the button's title. */
  waiting?: string;
  /** Where the host places it (its own spacing). */
  className?: string;
}

/** "Export…": opens the export dialog over a selection (the search page's matches, the run list's rows). */
export function ExportButton({ indices, where, query, waiting, className }: Props) {
  const [open, setOpen] = useState(false);
  const reading = useStillReading();
  const ready = !reading && indices !== null && indices.length > 0;
  const why = reading ? 'Export waits for the data to finish loading' : (waiting ?? 'Nothing to export');
  return (
    <>
      <button
        type="button"
        className={`btn export-button${className ? ` ${className}` : ''}`}
        disabled={!ready}
        title={ready ? 'Export these rollouts as training data (v1, sft, dpo) with their provenance' : why}
        onClick={() => setOpen(true)}
      >
        Export…
      </button>
      {open && indices && <ExportDialog indices={indices} where={where} query={query} onClose={() => setOpen(false)} />}
    </>
  );
}
