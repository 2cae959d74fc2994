import { useRef, useState } from 'react';
import './shared.css';

interface Props {
  /** The button's text, e.g. "Open a queue file…". */
  label: string;
  /** The file input's accessible name and what a bad file is said not to be ("a review queue"). */
  inputLabel: string;
  what: string;
  accept: string;
  /** Reads the chosen file; a rejection is said beside the button. */
  open: (file: File) => Promise<unknown>;
  primary?: boolean;
}

/**
 * A button that opens one data file from disk (a review queue, a regrade table: what the static app cannot
 * fetch from a `view` server) and says what is wrong with a bad one, naming the file.
 */
export function OpenDataFileButton({ label, inputLabel, what, accept, open, primary = false }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="data-file-open">
      <button type="button" className={primary ? 'btn btn--primary' : 'btn'} onClick={() => input.current?.click()}>
        {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        hidden
        aria-label={inputLabel}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (!file) return;
          setError(null);
          open(file).catch((err: unknown) => setError(`${file.name} is not ${what}: ${err instanceof Error ? err.message : String(err)}`));
        }}
      />
      {error && (
        <span className="data-file-open__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
