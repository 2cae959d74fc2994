import { useRef } from 'react';
import { ACCEPT, useOpenFiles } from './useOpenFiles';

/** A real button in front of the hidden file input, so it looks and focuses like every other button. */
export function OpenFilesButton({ primary = false }: { primary?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const open = useOpenFiles();
  return (
    <>
      <button type="button" className={primary ? 'btn btn--primary' : 'btn'} onClick={() => input.current?.click()}>
        Open files…
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        multiple
        hidden
        onChange={(e) => {
          const files = [...(e.currentTarget.files ?? [])];
          // Clear it so choosing the same file again (after editing it) fires change again.
          e.currentTarget.value = '';
          if (files.length > 0) open(files);
        }}
      />
    </>
  );
}
