import { useRef, useState } from 'react';
import { useOpenRegradeFile } from '../../load';

/** Opens a regrade.parquet or regrade.journal from disk (a static host, or a regrade kept elsewhere); says what is wrong with a bad one. */
export function RegradeOpenButton({ primary = false }: { primary?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const open = useOpenRegradeFile();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="regrade-open">
      <button type="button" className={primary ? 'btn btn--primary' : 'btn'} onClick={() => input.current?.click()}>
        Open a regrade table…
      </button>
      <input
        ref={input}
        type="file"
        accept=".parquet,.journal,.jsonl"
        hidden
        aria-label="Regrade table"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (!file) return;
          setError(null);
          open(file).catch((err: unknown) =>
            setError(`${file.name} is not a regrade table: ${err instanceof Error ? err.message : String(err)}`),
          );
        }}
      />
      {error && (
        <span className="regrade-open__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
