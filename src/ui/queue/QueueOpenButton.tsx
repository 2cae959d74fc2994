import { useRef, useState } from 'react';
import { useOpenQueueFile } from '../../load';

/** Opens a queue file from disk (a static host, `npm start`, or another run's queue); says what is wrong with a bad one. */
export function QueueOpenButton({ primary = false }: { primary?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const open = useOpenQueueFile();
  const [error, setError] = useState<string | null>(null);
  return (
    <span className="queue-open">
      <button type="button" className={primary ? 'btn btn--primary' : 'btn'} onClick={() => input.current?.click()}>
        Open a queue file…
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Queue file"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (!file) return;
          setError(null);
          open(file).catch((err: unknown) =>
            setError(`${file.name} is not a review queue: ${err instanceof Error ? err.message : String(err)}`),
          );
        }}
      />
      {error && (
        <span className="queue-open__error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
